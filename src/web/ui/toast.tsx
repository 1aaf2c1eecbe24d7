import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

export interface ToastInput {
  title: string;
  description?: string;
  /** `warning`: it worked, but not as hoped (an approved document that is already out of date): amber, announced at once, shown longer. */
  variant?: 'default' | 'warning' | 'destructive';
}
interface Toast extends ToastInput {
  id: number;
}

const TOAST_DURATION_MS = 6000;
/** A warning asks for something to be done: time to read it through. */
const WARNING_DURATION_MS = 12_000;
const ToastContext = createContext<((toast: ToastInput) => void) | null>(null);

/** Shows a notice in the corner; warnings and destructive notices are announced assertively. */
export function useToast() {
  const push = useContext(ToastContext);
  if (!push) throw new Error('useToast needs a ToastProvider');
  return push;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const push = useCallback((toast: ToastInput) => {
    const id = nextId.current++;
    setToasts((current) => [...current.slice(-2), { ...toast, id }]);
  }, []);
  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((t) => t.id !== id)), []);
  const value = useMemo(() => push, [push]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <section
        aria-label="Notifications"
        className="pointer-events-none fixed inset-x-0 top-0 z-[100] flex flex-col items-center gap-2 p-4 sm:inset-x-auto sm:right-0 sm:items-end"
      >
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), toast.variant === 'warning' ? WARNING_DURATION_MS : TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast.id, toast.variant, onDismiss]);
  const variant = toast.variant ?? 'default';
  const look = {
    default: { box: 'border-slate-200 bg-white text-slate-900', text: 'text-slate-600', close: 'text-slate-500 hover:bg-slate-100' },
    warning: { box: 'border-amber-400 bg-amber-50 text-amber-950', text: 'text-amber-900', close: 'text-amber-900 hover:bg-amber-100' },
    destructive: { box: 'border-red-700 bg-red-700 text-white', text: 'text-red-50', close: 'text-red-50 hover:bg-red-800' },
  }[variant];
  return (
    <div
      role={variant === 'default' ? 'status' : 'alert'}
      data-variant={variant}
      className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border p-4 shadow-lg ${look.box}`}
    >
      <div className="flex-1">
        <p className="text-sm font-semibold">{toast.title}</p>
        {toast.description ? <p className={`mt-1 text-sm ${look.text}`}>{toast.description}</p> : null}
      </div>
      <button type="button" onClick={() => onDismiss(toast.id)} className={`-m-1 rounded-md p-1 ${look.close}`} aria-label="Dismiss notification">
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
          <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
        </svg>
      </button>
    </div>
  );
}

/** The seed's failure notice (§8). */
export const GENERIC_ERROR = 'Something went wrong. Please try again.';

/** Logs a failure to the console and shows the destructive 'Error' notice. */
export function useErrorNotice() {
  const push = useToast();
  return useCallback(
    (what: string, error: unknown) => {
      console.error(`${what}:`, error);
      push({ title: 'Error', description: GENERIC_ERROR, variant: 'destructive' });
    },
    [push],
  );
}
