// Settings → Models as a user fills it: a provider, its key, a base URL (the loopback replay server
// in tests), a model; done once the model is listed with its Remove button.
import type { Page } from '@playwright/test';

export interface ModelSetup {
  provider: string;
  key: string;
  baseUrl: string;
  model: string;
}

/** Adds a model on the Settings screen (opened through its button unless already there). */
export async function addModel(page: Page, m: ModelSetup, timeout = 60_000): Promise<void> {
  const provider = page.getByLabel('Provider');
  if (!(await provider.isVisible())) await page.getByRole('button', { name: 'Settings' }).click();
  await provider.selectOption(m.provider);
  await page.getByLabel('API key').fill(m.key);
  await page.getByLabel('Base URL').fill(m.baseUrl);
  await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption(m.model);
  await page.getByRole('button', { name: 'Add model' }).click();
  const listed = new RegExp(`^Remove .* ${m.model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  await page.getByRole('button', { name: listed }).first().waitFor({ timeout });
}
