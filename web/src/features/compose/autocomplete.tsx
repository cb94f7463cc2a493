// web/src/features/compose/autocomplete.tsx — @ and # suggestions in a text box (the ARIA
// combobox pattern): typing `@an` lists people from the people index (GET /users?q=), typing
// `#话` lists topics in use (GET /topics?q=). The box keeps the focus; the list is a listbox
// whose active option the box names (aria-activedescendant). ↑ / ↓ move, Enter or Tab accept,
// Escape closes (until the word changes); a click accepts too. Accepting puts `@handle ` or
// Weibo's `#topic# ` in place of what was typed, the caret after it.
//
// What counts as a mention or a topic being typed follows the server's parser
// (shared/domain/text-entities.ts): `@` or `＠` not after a word character, then handle
// characters; `#` or `＃` not after a word character, then anything but `#`, spaces and the
// characters a topic name never holds. Requests wait until typing pauses, and an answer to a
// word no longer being typed is dropped.
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Avatar, personOf, type Person } from '../../components/avatar';
import { useI18n } from '../../i18n/i18n';
import { insertAt } from './insert';
import { type Typed, typedAt } from './typed';

/** How long typing must pause before a request (ms). */
const DEBOUNCE_MS = 180;
const SHOWN = 6;

type Option = { kind: '@'; person: Person } | { kind: '#'; name: string };

const optionText = (o: Option) => (o.kind === '@' ? `@${o.person.handle} ` : `#${o.name}# `);

export interface Autocomplete {
  /** Spread on the text box. */
  boxProps: {
    role: 'combobox';
    'aria-autocomplete': 'list';
    'aria-expanded': boolean;
    'aria-controls'?: string;
    'aria-activedescendant'?: string;
    onClick: () => void;
    onKeyUp: (e: KeyboardEvent) => void;
    onBlur: () => void;
  };
  /** Call from the box's input handler with its new value. */
  typed: (text: string) => void;
  /** Call first from the box's keydown handler: a handled key is defaultPrevented. */
  onKeyDown: (e: KeyboardEvent) => void;
  /** The listbox, to render right after the box. */
  list: JSX.Element | null;
}

export function useAutocomplete({
  id,
  box,
  onAccept,
}: {
  /** The listbox's id. */
  id: string;
  box: { current: HTMLTextAreaElement | null };
  /** The box's new value, with the accepted suggestion in it. */
  onAccept: (value: string) => void;
}): Autocomplete {
  const { t } = useI18n();
  const [typing, setTyping] = useState<Typed | null>(null);
  const [options, setOptions] = useState<Option[]>([]);
  const [active, setActive] = useState(0);
  /** A word closed with Escape (kind, start and text): not offered again until it changes. */
  const dismissed = useRef<string | null>(null);
  const asked = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const open = typing !== null && options.length > 0;

  useEffect(() => () => clearTimeout(timer.current), []);

  function look() {
    const b = box.current;
    const now = b && b.selectionStart === b.selectionEnd ? typedAt(b.value, b.selectionStart) : null;
    const word = now && `${now.kind}${now.start}:${now.query}`;
    if (word !== dismissed.current) dismissed.current = null;
    const next = now && word !== dismissed.current ? now : null;
    if (next?.kind === typing?.kind && next?.query === typing?.query && next?.start === typing?.start) return;
    setTyping(next);
    clearTimeout(timer.current);
    const ask = ++asked.current; // any answer to an earlier word is stale from now on
    if (!next) {
      setOptions([]);
      return;
    }
    timer.current = setTimeout(async () => {
      try {
        const found: Option[] =
          next.kind === '@'
            ? (
                await call(api.GET('/users', { params: { query: { q: next.query, limit: SHOWN } } }), {
                  background: true,
                })
              ).data.users.map((u) => ({ kind: '@', person: personOf(u) }))
            : (
                await call(api.GET('/topics', { params: { query: { q: next.query, limit: SHOWN } } }), {
                  background: true,
                })
              ).data.topics.map((x) => ({ kind: '#', name: x.name }));
        if (ask !== asked.current) return;
        setOptions(found);
        setActive(0);
      } catch {
        // Suggestions are a help: without them the text is typed as it is.
        if (ask === asked.current) setOptions([]);
      }
    }, DEBOUNCE_MS);
  }

  function close() {
    if (typing) dismissed.current = `${typing.kind}${typing.start}:${typing.query}`;
    ++asked.current;
    clearTimeout(timer.current);
    setTyping(null);
    setOptions([]);
  }

  function accept(o: Option) {
    const b = box.current;
    if (!b || !typing) return;
    const end = typing.start + 1 + typing.query.length;
    const value = insertAt(b, optionText(o), typing.start, end);
    ++asked.current;
    setTyping(null);
    setOptions([]);
    onAccept(value);
  }

  const onKeyDown = (e: KeyboardEvent) => {
    if (!open || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + options.length) % options.length);
    } else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      e.preventDefault();
      accept(options[Math.min(active, options.length - 1)]!);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation(); // the list closes, not the form around it
      close();
    }
  };

  const optionId = (i: number) => `${id}-${i}`;
  const list = open ? (
    <div
      id={id}
      class="suggestions"
      role="listbox"
      aria-label={t(typing.kind === '@' ? 'suggest.people' : 'suggest.topics')}
    >
      {options.map((o, i) => (
        // biome-ignore lint/a11y/useFocusableInteractive lint/a11y/useKeyWithClickEvents: the combobox pattern: the box keeps the focus and names the active option (aria-activedescendant); its keys are the box's
        <div
          key={o.kind === '@' ? o.person.handle : o.name}
          id={optionId(i)}
          role="option"
          aria-selected={i === active}
          class={i === active ? 'active' : undefined}
          // The box keeps the focus (and its caret): the press does not take it.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => accept(o)}
        >
          {o.kind === '@' ? (
            <>
              <Avatar {...o.person} />
              <span class="suggestion-text">
                <span class="suggestion-name">{o.person.displayName}</span>
                <span class="suggestion-handle">@{o.person.handle}</span>
              </span>
            </>
          ) : (
            <span class="suggestion-name">#{o.name}#</span>
          )}
        </div>
      ))}
    </div>
  ) : null;

  return {
    boxProps: {
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': open,
      ...(open ? { 'aria-controls': id, 'aria-activedescendant': optionId(active) } : {}),
      onClick: look,
      onKeyUp: (e) => {
        if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) look();
      },
      onBlur: () => {
        ++asked.current;
        clearTimeout(timer.current);
        setTyping(null);
        setOptions([]);
      },
    },
    typed: () => look(),
    onKeyDown,
    list,
  };
}
