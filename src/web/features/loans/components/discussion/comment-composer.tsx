import { useId, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { COMMENT_MAX_LENGTH, type CommentVisibility } from '../../../../../shared/domain/comments';
import type { MentionCandidate } from '../../../../../shared/schemas/comments';
import { ApiError } from '../../../../lib/api-client';
import { Button } from '../../../../ui/button';
import { Spinner } from '../../../../ui/spinner';
import { useMentionCandidates } from '../../api/mention-candidates';
import { insertMention, matchingPeople, mentionedIn, mentionQueryAt } from './mention-query';

export interface ComposerValue {
  body: string;
  mentions: string[];
  visibility: CommentVisibility;
}

/**
 * Where comments are written: a new thread, a reply, or an edit. A textarea
 * whose "@" opens an accessible list of the people who may see the comment
 * (the API's candidates only): arrow keys move, Enter or Tab picks, Escape
 * closes; the textarea names the highlighted person with
 * `aria-activedescendant`. Ctrl+Enter (⌘+Enter) sends. What is typed lives
 * in this component's state, so a refetch of the discussion around it never
 * loses it.
 */
export function CommentComposer({
  loanId,
  label,
  submitLabel,
  visibility: fixedVisibility,
  chooseVisibility = false,
  initial,
  autoFocus = false,
  onSubmit,
  onCancel,
}: {
  loanId: string;
  label: string;
  submitLabel: (visibility: CommentVisibility) => string;
  /** The thread's visibility (a reply, an edit, a borrower's comment); with `chooseVisibility`, the starting choice. */
  visibility: CommentVisibility;
  /** The team starting a thread chooses shared or internal. */
  chooseVisibility?: boolean;
  initial?: { body: string; mentions: { id: string; name: string }[] };
  autoFocus?: boolean;
  /** Resolves when sent (the composer empties), rejects to keep the text and show the error. */
  onSubmit: (value: ComposerValue) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [body, setBody] = useState(initial?.body ?? '');
  const [visibility, setVisibility] = useState<CommentVisibility>(fixedVisibility);
  const [mentioned, setMentioned] = useState<Map<string, string>>(() => new Map((initial?.mentions ?? []).map((m) => [m.id, m.name])));
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const id = useId();
  const listboxId = `${id}-people`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const counterId = `${id}-count`;

  const candidates = useMentionCandidates(loanId, visibility);
  const people = useMemo(() => candidates.data?.people ?? [], [candidates.data]);
  const matches = useMemo(() => (query ? matchingPeople(people, query.query).slice(0, 8) : []), [people, query]);
  const open = query !== null && matches.length > 0;
  const activeIndex = Math.min(active, Math.max(0, matches.length - 1));

  // Put the caret after an inserted name once React has written the new text.
  useLayoutEffect(() => {
    if (pendingCaret.current === null || !textarea.current) return;
    textarea.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  });

  const follow = (text: string, caret: number) => {
    const next = mentionQueryAt(text, caret);
    setQuery(next);
    if (next?.query !== query?.query) setActive(0);
  };

  const pick = (person: MentionCandidate) => {
    if (!query) return;
    const next = insertMention(body, query, person.name);
    setBody(next.text);
    setMentioned((current) => new Map(current).set(person.id, person.name));
    setQuery(null);
    pendingCaret.current = next.caret;
    textarea.current?.focus();
  };

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    if (body.trim() === '') {
      setError('Write something first');
      textarea.current?.focus();
      return;
    }
    // Only people who may see it: a name left over from before switching to internal is no mention.
    const allowed = new Map([...mentioned].filter(([personId]) => people.some((person) => person.id === personId)));
    setBusy(true);
    setError(null);
    try {
      const sent = body;
      await onSubmit({ body: sent, mentions: mentionedIn(sent, allowed), visibility });
      // Sent once the discussion has it (the live stream may show it sooner). The text is read-only meanwhile;
      // should it still have changed, what is there now stays.
      setBody((current) => (current === sent ? '' : current));
      setMentioned(new Map());
    } catch (failure) {
      setError(failure instanceof ApiError ? (failure.fieldErrors[0]?.message ?? failure.message) : 'Sending the comment failed. Try again.');
      textarea.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
      return;
    }
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((activeIndex + step + matches.length) % matches.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(matches[activeIndex]!);
        return;
      }
      if (event.key === 'Escape') {
        // Closes the list only, not a dialog around the composer.
        event.preventDefault();
        event.stopPropagation();
        setQuery(null);
        return;
      }
    } else if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      onCancel();
    }
  };

  const internal = visibility === 'internal';
  const tooLong = body.length > COMMENT_MAX_LENGTH;

  return (
    <form
      onSubmit={(event) => void send(event)}
      className={`rounded-xl border p-3 ${internal ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white'}`}
      data-visibility={visibility}
    >
      {chooseVisibility ? (
        <fieldset className="mb-2">
          <legend className="sr-only">Who sees this comment</legend>
          <div className="flex flex-wrap gap-2 text-sm">
            {(['shared', 'internal'] as const).map((option) => (
              <label
                key={option}
                className={`inline-flex cursor-pointer items-center gap-2 rounded-full border px-3 py-1 font-medium has-focus-visible:outline-2 has-focus-visible:outline-navy-600 ${
                  visibility === option
                    ? option === 'internal'
                      ? 'border-amber-500 bg-amber-100 text-amber-900'
                      : 'border-navy-600 bg-navy-50 text-navy-900'
                    : 'border-slate-300 bg-white text-slate-700'
                }`}
              >
                <input
                  type="radio"
                  name={`${id}-visibility`}
                  value={option}
                  checked={visibility === option}
                  onChange={() => setVisibility(option)}
                  className="sr-only"
                />
                {option === 'shared' ? 'Everyone on the loan' : 'Internal: team only'}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <label htmlFor={`${id}-body`} className="sr-only">
        {label}
      </label>
      <div className="relative">
        <textarea
          ref={textarea}
          id={`${id}-body`}
          value={body}
          rows={3}
          // While it is being sent the text is what was sent: nothing typed then could be emptied with it.
          readOnly={busy}
          aria-busy={busy || undefined}
          // An editor or a reply the person just opened takes the focus.
          autoFocus={autoFocus}
          placeholder={internal ? 'Write an internal note… (@ to mention)' : 'Write a comment… (@ to mention)'}
          aria-describedby={`${hintId}${error ? ` ${errorId}` : ''}${tooLong ? ` ${counterId}` : ''}`}
          aria-invalid={error || tooLong ? true : undefined}
          aria-autocomplete="list"
          aria-controls={open ? listboxId : undefined}
          aria-activedescendant={open ? `${listboxId}-${activeIndex}` : undefined}
          onChange={(event) => {
            setBody(event.target.value);
            if (error) setError(null);
            follow(event.target.value, event.target.selectionStart);
          }}
          onSelect={(event) => follow(event.currentTarget.value, event.currentTarget.selectionStart)}
          onBlur={() => setQuery(null)}
          onKeyDown={onKeyDown}
          className="block min-h-20 w-full resize-y rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-navy-600 focus:outline-2 focus:outline-navy-600 sm:text-sm"
        />
        {open ? (
          <ul
            id={listboxId}
            role="listbox"
            aria-label="People to mention"
            className="absolute inset-x-0 top-full z-20 mt-1 max-h-60 overflow-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
          >
            {matches.map((person, index) => (
              <li
                key={person.id}
                id={`${listboxId}-${index}`}
                role="option"
                aria-selected={index === activeIndex}
                // Keeps the focus in the textarea, so the list stays tied to it.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(person)}
                className={`flex cursor-pointer items-center justify-between gap-3 px-3 py-2 text-sm ${index === activeIndex ? 'bg-navy-50 text-navy-900' : 'text-slate-800'}`}
              >
                <span className="font-medium">{person.name}</span>
                <span className="text-xs text-slate-600">{person.side === 'team' ? 'Team' : 'Borrower'}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <p id={hintId} className="sr-only">
        Type @ to mention someone; use the arrow keys and Enter to choose. Press Control+Enter to send.
      </p>
      <div aria-live="polite" className="sr-only">
        {open ? `${matches.length} ${matches.length === 1 ? 'person' : 'people'} to mention` : ''}
      </div>
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <p id={counterId} className={`text-xs ${tooLong ? 'font-semibold text-red-700' : 'text-slate-600'}`}>
          {tooLong ? `${body.length - COMMENT_MAX_LENGTH} characters too long` : internal ? 'Only your team sees this.' : 'Everyone on the loan sees this.'}
        </p>
        <div className="flex gap-2">
          {onCancel ? (
            <Button variant="ghost" size="sm" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" size="sm" variant={internal ? 'secondary' : 'primary'} disabled={busy || tooLong}>
            {busy ? <Spinner /> : null}
            {submitLabel(visibility)}
          </Button>
        </div>
      </div>
    </form>
  );
}
