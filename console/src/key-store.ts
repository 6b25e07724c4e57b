/** The API key lives in this tab's sessionStorage only: never a cookie, never the URL, gone when the tab closes. */
const KEY = 'vds.apiKey';

export const keyStore = {
  get(): string | null {
    return sessionStorage.getItem(KEY);
  },
  set(apiKey: string): void {
    sessionStorage.setItem(KEY, apiKey);
  },
  clear(): void {
    sessionStorage.removeItem(KEY);
  },
};
