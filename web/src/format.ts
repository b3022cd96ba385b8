/** Number and date formats shared by screens (English, UTC, as the API reports). */
export const count = (value: number) => value.toLocaleString('en');
export const decimal = (value: number, digits = 1) =>
  value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
export const percent = (share: number) => `${Math.round(share * 100)} %`;
export const dateTime = (iso: string | null) =>
  iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
export const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
