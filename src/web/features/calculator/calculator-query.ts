import { formatMoneyInput } from '../../../shared/money';
import { DEFAULT_CALCULATOR_FORM, FIELD_SPECS, parseField, type CalculatorForm, type SwitchName } from './calculator-form';

/**
 * The calculator's inputs in its address (`?amount=300000&rate=7.25…`), so a
 * broker can send a filled calculator as a link. Short, stable names in the
 * form's order: links already sent keep working when labels change.
 */
const QUERY_KEYS: Readonly<Record<keyof CalculatorForm, string>> = {
  loanAmount: 'amount',
  interestRate: 'rate',
  amortizationYears: 'years',
  interestOnly: 'io',
  monthlyRent: 'rent',
  shortTermRental: 'str',
  annualRevenue: 'revenue',
  expensePercent: 'expense',
  annualTaxes: 'taxes',
  annualInsurance: 'insurance',
  monthlyHoa: 'hoa',
  targetDscr: 'target',
};
const fields = Object.keys(QUERY_KEYS) as (keyof CalculatorForm)[];
const isSwitch = (name: keyof CalculatorForm): name is SwitchName => typeof DEFAULT_CALCULATOR_FORM[name] === 'boolean';

/**
 * The form a query string describes (with or without its "?"), money shown
 * with thousands separators as the defaults are. Each value that is missing,
 * unreadable or out of bounds falls back to its default; unknown keys are
 * ignored. Never throws.
 */
export function parseCalculatorQuery(search: string): CalculatorForm {
  const params = new URLSearchParams(search);
  const form: CalculatorForm = { ...DEFAULT_CALCULATOR_FORM };
  for (const name of fields) {
    const value = params.get(QUERY_KEYS[name]);
    if (value === null) continue;
    if (isSwitch(name)) {
      if (value === '1' || value === '0') form[name] = value === '1';
    } else {
      const parsed = parseField(name, value);
      if (parsed.ok) form[name] = FIELD_SPECS[name].kind === 'money' ? formatMoneyInput(parsed.value) : value.trim();
    }
  }
  return form;
}

/**
 * The query string (without "?") of a form: every field, so a link means the
 * same figures whatever the defaults become. Money that reads is written as plain
 * dollars, without "$" and thousands separators (which would only be
 * percent-encoded). Anything else is written as typed; read back, a wrong
 * value is its default.
 */
export function toCalculatorQuery(form: CalculatorForm): string {
  const params = new URLSearchParams();
  for (const name of fields) {
    if (isSwitch(name)) {
      params.set(QUERY_KEYS[name], form[name] ? '1' : '0');
    } else {
      const text = form[name].trim();
      const parsed = parseField(name, text);
      params.set(QUERY_KEYS[name], parsed.ok && FIELD_SPECS[name].kind === 'money' ? formatMoneyInput(parsed.value, { grouping: false }) : text);
    }
  }
  return params.toString();
}
