// web/src/i18n/i18n.ts — the current language (中文 by default, English on request, kept in
// localStorage), message lookup with {placeholders} and plural forms, and localised relative dates.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { en, zh, type Message, type MessageKey } from './messages';

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

export type Params = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: Params) => string;

/**
 * The form of a message for the count `n` (Intl.PluralRules: English "1 post" / "2 posts";
 * Chinese has one form), its placeholders still in it. A count that is not a number ("20+")
 * takes the "other" form.
 */
export function pluralForm(locale: Locale, key: MessageKey, n?: string | number): string {
  const message: Message = (locale === 'en' ? en : zh)[key];
  if (typeof message === 'string') return message;
  const category = typeof n === 'number' ? new Intl.PluralRules(locale).select(n) : 'other';
  return category === 'one' ? message.one : message.other;
}

/** Each `{name}` replaced by its value; a name without one stays, for the caller to fill (a link, a bold count). */
export const fill = (text: string, params?: Params) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(params?.[name] ?? `{${name}}`));

export function translator(locale: Locale): Translate {
  return (key, params) => fill(pluralForm(locale, key, params?.n), params);
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
