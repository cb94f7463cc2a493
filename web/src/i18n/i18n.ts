// web/src/i18n/i18n.ts — the current language (中文 by default, English on request, kept in
// localStorage), message lookup with {placeholders}, and localised relative dates.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { en, zh, type MessageKey } from './messages';

export type Locale = 'zh-CN' | 'en';
export const LOCALES: { id: Locale; label: string }[] = [
  { id: 'zh-CN', label: '中文' },
  { id: 'en', label: 'English' },
];

const STORE_KEY = 'weibo.locale';

export function initialLocale(): Locale {
  const saved = localStorage.getItem(STORE_KEY);
  return saved === 'en' || saved === 'zh-CN' ? saved : 'zh-CN';
}

export function saveLocale(locale: Locale): void {
  localStorage.setItem(STORE_KEY, locale);
  document.documentElement.lang = locale;
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  const table: Record<MessageKey, string> = locale === 'en' ? en : zh;
  return (key, params) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params?.[name] ?? `{${name}}`));
}

export function hasMessage(key: string): key is MessageKey {
  return key in en;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "3 minutes ago" / "3分钟前" for the last week, a localised date beyond it. */
export function relativeTime(iso: string, locale: Locale, t: Translate, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (seconds < 45) return t('time.justNow');
  if (seconds < 7 * 86_400) {
    const [unit, size] = UNITS.find(([, s]) => seconds >= s) ?? ['minute', 60];
    return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-Math.round(seconds / size), unit);
  }
  return absoluteDate(iso, locale);
}

export const absoluteDate = (iso: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso));
export const absoluteTime = (iso: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));

export interface I18n {
  locale: Locale;
  t: Translate;
  setLocale: (l: Locale) => void;
}

export const I18nContext = createContext<I18n>({ locale: 'zh-CN', t: translator('zh-CN'), setLocale: () => {} });
export const useI18n = () => useContext(I18nContext);
