// web/src/components/icons.tsx — the few line icons the shell and the reaction bar use, drawn
// inline (no icon font, no extra request). Decorative: the control they sit in carries the words.
import type { JSX } from 'preact';

const PATHS = {
  home: 'M3 10.5 12 3l9 7.5M5.5 9v11h13V9M10 20v-6h4v6',
  bell: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2ZM10 20a2 2 0 0 0 4 0',
  topic: 'M9 3 7 21M17 3l-2 18M4 8.5h17M3 15.5h17',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8ZM4 21c0-4 3.6-6.5 8-6.5s8 2.5 8 6.5',
  login: 'M10 17l5-5-5-5M15 12H3M14 3h6v18h-6',
  register: 'M10 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8ZM2 21c0-4 3.6-6.5 8-6.5 1.5 0 2.9.3 4 .8M19 14v7M15.5 17.5h7',
  repost: 'M4 12V9a3 3 0 0 1 3-3h12l-3-3M20 12v3a3 3 0 0 1-3 3H5l3 3',
  comment: 'M4 5h16v11H9l-5 4V5Z',
  like: 'M12 20s-7.5-4.6-7.5-10A4.3 4.3 0 0 1 12 7.6 4.3 4.3 0 0 1 19.5 10c0 5.4-7.5 10-7.5 10Z',
  bookmark: 'M6.5 3.5h11v17L12 16.5l-5.5 4v-17Z',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z',
  search: 'M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13ZM15.3 15.3 21 21',
  close: 'M6 6l12 12M18 6 6 18',
  mail: 'M3.5 6h17v12h-17V6ZM3.5 6.5 12 13l8.5-6.5',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({
  name,
  filled = false,
  ...rest
}: { name: IconName; filled?: boolean } & JSX.SVGAttributes<SVGSVGElement>) {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" {...rest}>
      <path
        d={PATHS[name]}
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        stroke-width={name === 'more' ? 3.2 : 1.8}
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}
