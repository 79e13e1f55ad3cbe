// The two screens the app is checked at: a laptop at 1280 px and a 412 × 915 phone.

export const SIZES = [
  { name: '1280 px', phone: false, use: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone 412×915', phone: true, use: { viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true } },
] as const;

/** On a phone the reader's tabs, filter, toggles and branches are behind "View options": opens them (nothing to do on a wide screen). */
export async function showViewOptions(page: import('@playwright/test').Page): Promise<void> {
  const button = page.getByRole('button', { name: 'View options' });
  if ((await button.isVisible()) && (await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}
