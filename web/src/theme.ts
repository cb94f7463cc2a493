// web/src/theme.ts — the colour theme: the system's (prefers-color-scheme) by default, or light
// or dark by choice, kept in localStorage. The choice is an attribute on <html>
// (data-theme="light" | "dark"; absent: follow the system), read by styles.css.
export type Theme = 'system' | 'light' | 'dark';
export const THEMES: Theme[] = ['system', 'light', 'dark'];

const STORE_KEY = 'weibo.theme';

export function savedTheme(): Theme {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    return saved === 'light' || saved === 'dark' ? saved : 'system';
  } catch {
    return 'system';
  }
}

/** Shows `theme` now and keeps it for the next visit. */
export function setTheme(theme: Theme): void {
  try {
    if (theme === 'system') localStorage.removeItem(STORE_KEY);
    else localStorage.setItem(STORE_KEY, theme);
  } catch {
    // Storage refused (private mode): the choice holds for this page only.
  }
  applyTheme(theme);
}

export function applyTheme(theme: Theme = savedTheme()): void {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}
