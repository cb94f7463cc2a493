// web/src/components/page-title.tsx — each page is named: the window title follows the page's
// heading ("通知 - 微博"), and after moving to another page the focus goes to that heading, so a
// screen reader announces the new page and the next Tab starts from it (not from <body>, nor
// from the link that led there).
import { useEffect, useRef } from 'preact/hooks';

export function PageTitle({ routeKey, appName }: { routeKey: string; appName: string }) {
  const first = useRef(true);
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    const moved = !first.current;
    first.current = false;
    let focused = false;
    const apply = () => {
      const heading = main.querySelector('h1');
      const name = heading?.textContent?.trim();
      document.title = name && name !== appName ? `${name} - ${appName}` : appName;
      // Once per page, when its heading is there; never while the reader is typing somewhere.
      const typing = document.activeElement?.matches('input, textarea, select, [contenteditable]') ?? false;
      if (moved && !focused && heading && !typing) {
        heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
        focused = true;
      }
    };
    apply();
    // The heading can arrive or change after the page's data (a profile's name).
    const observer = new MutationObserver(apply);
    observer.observe(main, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [routeKey, appName]);
  return null;
}
