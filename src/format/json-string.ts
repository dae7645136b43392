/**
 * A string as a JSON string literal, the bytes `JSON.stringify` gives: most values a page writes
 * (numbers, SIP users, names, statuses) need no escape, and checking that is several times faster
 * than `JSON.stringify`; anything that does (a quote, a backslash, a control character, a lone
 * surrogate) goes to `JSON.stringify`, which knows the rules.
 * @example jsonString('+15126002188') // '"+15126002188"'
 * @example jsonString('say "hi"') // '"say \\"hi\\""'
 */
export function jsonString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}
