// web/src/components/menu.tsx — the "⋯" menu: the actions a card or a profile has beyond its
// main ones (delete, mute, block), out of the way until asked for. A menu button with a list of
// menu items (the ARIA menu-button pattern): Enter or a click opens it with the first item
// focused, arrows move, Esc or a click elsewhere closes it and the focus returns to the button.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Icon } from './icons';

export interface MenuItem {
  label: string;
  run: () => void;
  danger?: boolean;
}

export function MoreMenu({ label, items }: { label: string; items: MenuItem[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const entries = () => [...(list.current?.querySelectorAll<HTMLButtonElement>('[role=menuitem]') ?? [])];

  // Layout effect: the first item has the focus before anything else can happen (a key press).
  useLayoutEffect(() => {
    if (!open) return;
    entries()[0]?.focus();
    const outside = (e: Event) => {
      if (!list.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const keys = (e: KeyboardEvent) => {
    const all = entries();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (!open) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      all[(at + 1) % all.length]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      all[(at - 1 + all.length) % all.length]?.focus();
    } else if (e.key === 'Tab') setOpen(false);
  };

  if (items.length === 0) return null;
  return (
    // Keys on the button and on the list, so on the whole widget: Esc closes whether the focus is on
    // an item or still on the button.
    <span class="more-menu">
      <button
        ref={button}
        type="button"
        class="icon-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        onClick={() => setOpen(!open)}
        onKeyDown={keys}
      >
        <Icon name="more" />
      </button>
      {open && (
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the menu-button pattern's menu, a list whose items are role=none
        <ul ref={list} role="menu" aria-label={label} class="menu" onKeyDown={keys}>
          {items.map((item) => (
            <li key={item.label} role="none">
              <button
                type="button"
                role="menuitem"
                class={item.danger ? 'danger' : undefined}
                onClick={() => {
                  close();
                  item.run();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
