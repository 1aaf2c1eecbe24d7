import { useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import { DEFAULT_STR_EXPENSE_PERCENT } from '../../../shared/domain/dscr';
import { usePageTitle } from '../../lib/use-page-title';
import { SiteFooter } from '../../ui/site-footer';
import { DEFAULT_CALCULATOR_FORM, evaluateCalculator, type CalculatorForm, type NumberFieldName, type SwitchName } from './calculator-form';
import { parseCalculatorQuery, toCalculatorQuery } from './calculator-query';
import { CalculatorCta } from './components/calculator-cta';
import { CheckboxField, NumberField } from './components/calculator-fields';
import { CalculatorHeader } from './components/calculator-header';
import { CalculatorResults, ResultsBar } from './components/calculator-results';

const noSubscription = () => () => {};

/**
 * The address's query string, read once the page has hydrated: the
 * prerendered HTML holds the defaults, so the hydrating render must too
 * (the server snapshot, ''), and React renders again at once with the
 * address's inputs. The page itself writes the address afterwards, so it
 * never needs telling that it changed.
 */
function useAddressQuery(): string {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.search,
    () => '',
  );
}

/**
 * What the visitor changed in the prerendered form before the app hydrated
 * it: the fields whose value in the page is not the default the HTML held.
 * Hydration keeps those values in the page, but the app's state does not
 * have them, and its next render would put the defaults back.
 */
function typedBeforeHydration(form: HTMLFormElement): Partial<CalculatorForm> {
  const typed: Partial<CalculatorForm> = {};
  for (const [name, initial] of Object.entries(DEFAULT_CALCULATOR_FORM) as [keyof CalculatorForm, string | boolean][]) {
    const input = form.elements.namedItem(name);
    if (!(input instanceof HTMLInputElement)) continue;
    const value = typeof initial === 'boolean' ? input.checked : input.value;
    if (value !== initial) Object.assign(typed, { [name]: value });
  }
  return typed;
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <legend className="float-left mb-4 w-full text-base font-semibold text-navy-900">{title}</legend>
      <div className="clear-left grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

export default function DscrCalculatorPage() {
  usePageTitle('dscrCalculator');
  const addressQuery = useAddressQuery();
  // Null until the visitor changes something: until then the form is what the address says.
  const [edited, setEdited] = useState<CalculatorForm | null>(null);
  const form = useMemo(() => edited ?? parseCalculatorQuery(addressQuery), [edited, addressQuery]);
  const { errors, results } = useMemo(() => evaluateCalculator(form), [form]);

  const change = (next: CalculatorForm) => {
    setEdited(next);
    // Replaced, not pushed: typing is not navigation, and Back still leaves the page. The router's state is kept.
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${toCalculatorQuery(next)}${window.location.hash}`);
  };
  const field = (name: NumberFieldName) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (value: string) => change({ ...form, [name]: value }),
  });
  const toggle = (name: SwitchName) => ({
    name,
    checked: form[name],
    onChange: (checked: boolean) => change({ ...form, [name]: checked }),
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => event.preventDefault();

  // Once, as the page hydrates (a layout effect: before the address's inputs re-render the fields), whatever was
  // typed into the prerendered form is taken over, on top of what the address says. Later changes come through the fields.
  const formRef = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => {
    if (!formRef.current) return;
    const typed = typedBeforeHydration(formRef.current);
    if (Object.keys(typed).length > 0) change({ ...parseCalculatorQuery(window.location.search), ...typed });
  }, []);

  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:font-semibold focus:text-navy-900 focus:shadow-lg"
      >
        Skip to content
      </a>
      <CalculatorHeader />
      <main id="main" className="bg-gradient-to-b from-navy-50 via-white to-white">
        <div className="mx-auto max-w-6xl px-4 pt-10 pb-8 sm:px-6 sm:pt-14">
          <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">Free tool</p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance text-navy-900 sm:text-5xl">DSCR Calculator</h1>
          <p className="mt-4 max-w-2xl text-lg leading-relaxed text-pretty text-slate-600">
            Work out an investor loan&apos;s monthly payment, PITIA and debt-service coverage ratio, the largest loan that meets your target DSCR, and the rent
            it needs. The address bar keeps every input: copy it to send the figures.
          </p>
        </div>
        <div className="mx-auto grid max-w-6xl gap-6 px-4 pb-16 sm:px-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start lg:gap-8 lg:pb-24">
          <form ref={formRef} aria-label="DSCR calculator" noValidate onSubmit={onSubmit} className="space-y-6">
            <Group title="Loan">
              <NumberField label="Loan amount" prefix="$" {...field('loanAmount')} />
              <NumberField label="Interest rate" suffix="%" {...field('interestRate')} />
              <NumberField label="Amortization (years)" inputMode="numeric" {...field('amortizationYears')} />
              <div className="sm:self-end sm:pb-2.5">
                <CheckboxField label="Interest-only" hint="Payments of amount × rate ÷ 12" {...toggle('interestOnly')} />
              </div>
            </Group>
            <Group title="Rental income">
              <div className="sm:col-span-2">
                <CheckboxField
                  label="Short-term rental"
                  hint="Qualify on a year's revenue less an expense factor, not on rent"
                  controls="income-fields"
                  {...toggle('shortTermRental')}
                />
              </div>
              {/* Both sets stay in the page (the prerendered HTML names every field); the switch shows one. */}
              <div id="income-fields" className="contents">
                <div hidden={form.shortTermRental}>
                  <NumberField label="Gross monthly rent" prefix="$" {...field('monthlyRent')} />
                </div>
                <div hidden={!form.shortTermRental}>
                  <NumberField label="Annual rental revenue" prefix="$" {...field('annualRevenue')} />
                </div>
                <div hidden={!form.shortTermRental}>
                  <NumberField
                    label="Expense factor"
                    suffix="%"
                    hint={`Share of revenue taken as expenses; ${DEFAULT_STR_EXPENSE_PERCENT} % unless your lender says otherwise`}
                    {...field('expensePercent')}
                  />
                </div>
              </div>
            </Group>
            <Group title="Taxes, insurance and HOA">
              <NumberField label="Annual property taxes" prefix="$" {...field('annualTaxes')} />
              <NumberField label="Annual insurance" prefix="$" {...field('annualInsurance')} />
              <NumberField label="Monthly HOA" prefix="$" {...field('monthlyHoa')} />
            </Group>
            <Group title="Target">
              <NumberField label="Target DSCR" hint="The ratio your lender asks for, often 1.00 to 1.25" {...field('targetDscr')} />
            </Group>
          </form>
          <div className="lg:sticky lg:top-24">
            <CalculatorResults results={results} hasErrors={Object.keys(errors).length > 0} shortTermRental={form.shortTermRental} />
          </div>
        </div>
        <CalculatorCta />
      </main>
      <ResultsBar dscr={results.dscr} band={results.band} />
      <SiteFooter />
      {/* The footer leaves room for a bar below md (the landing page's); the results bar stays up to lg. */}
      <div aria-hidden="true" className="hidden h-16 bg-navy-950 md:block lg:hidden" />
    </>
  );
}
