import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}
interface Toast extends ToastInput {
  id: number;
}

const TOAST_DURATION_MS = 6000;
const ToastContext = createContext<((toast: ToastInput) => void) | null>(null);

/** Shows a notice in the corner; destructive notices are announced assertively. */
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
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast.id, onDismiss]);
  const destructive = toast.variant === 'destructive';
  return (
    <div
      role={destructive ? 'alert' : 'status'}
      data-variant={toast.variant ?? 'default'}
      className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border p-4 shadow-lg ${
        destructive ? 'border-red-700 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900'
      }`}
    >
      <div className="flex-1">
        <p className="text-sm font-semibold">{toast.title}</p>
        {toast.description ? <p className={`mt-1 text-sm ${destructive ? 'text-red-50' : 'text-slate-600'}`}>{toast.description}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        className={`-m-1 rounded-md p-1 ${destructive ? 'text-red-50 hover:bg-red-800' : 'text-slate-500 hover:bg-slate-100'}`}
        aria-label="Dismiss notification"
      >
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
