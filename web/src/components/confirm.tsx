// web/src/components/confirm.tsx — the in-app question before an action that cannot be undone
// (delete, block): a modal <dialog> in the page's language and style, instead of the browser's
// confirm(). `ask` answers true only for the action's own button; Esc, Cancel or a click on the
// backdrop answer false. The focus starts on Cancel (the safe choice) and goes back where it was.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n';

export interface Question {
  /** The question, e.g. "Delete this post?" */
  title: string;
  /** What follows from it, if anything needs saying. */
  detail?: string;
  /** The action's button, e.g. "Delete". */
  action: string;
}

type Pending = Question & { answer: (yes: boolean) => void };
let show: ((p: Pending) => void) | undefined;

/** Asks the question in the page's dialog; resolves with the reader's answer. */
export function ask(question: Question): Promise<boolean> {
  return new Promise((answer) => (show ? show({ ...question, answer }) : answer(false)));
}

/** The one dialog `ask` shows; the shell mounts it once. */
export function ConfirmHost() {
  const { t } = useI18n();
  const [pending, setPending] = useState<Pending | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<Element | null>(null);

  useEffect(() => {
    show = (p) => {
      returnTo.current = document.activeElement;
      setPending(p);
    };
    return () => {
      show = undefined;
    };
  }, []);
  useEffect(() => {
    if (!pending) return;
    dialog.current?.showModal();
    cancel.current?.focus();
  }, [pending]);

  const close = (yes: boolean) => {
    if (!pending) return;
    pending.answer(yes);
    setPending(null);
    dialog.current?.close();
    (returnTo.current as HTMLElement | null)?.focus?.();
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop; from the keyboard, Esc closes the dialog (onCancel)
    <dialog
      ref={dialog}
      class="confirm"
      aria-labelledby="confirm-title"
      aria-describedby={pending?.detail ? 'confirm-detail' : undefined}
      onCancel={(e) => {
        e.preventDefault();
        close(false);
      }}
      onClick={(e) => e.target === dialog.current && close(false)}
    >
      {pending && (
        <>
          <h2 id="confirm-title">{pending.title}</h2>
          {pending.detail && <p id="confirm-detail">{pending.detail}</p>}
          <div class="confirm-buttons">
            <button ref={cancel} type="button" class="secondary" onClick={() => close(false)}>
              {t('confirm.cancel')}
            </button>
            <button type="button" class="danger" onClick={() => close(true)}>
              {pending.action}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
