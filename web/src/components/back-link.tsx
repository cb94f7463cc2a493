// web/src/components/back-link.tsx — the way back to the page a list belongs to ("← 返回 @ann 的主页"),
// said in words; the arrow is drawn for the eye and left out of the link's name.
import type { ComponentChildren } from 'preact';

export function BackLink({ href, children }: { href: string; children: ComponentChildren }) {
  return (
    <p class="back">
      <a href={href}>
        <span aria-hidden="true">← </span>
        {children}
      </a>
    </p>
  );
}
