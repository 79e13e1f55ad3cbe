/**
 * The page's one Trusted Types policy. The CSP (vite.config.ts) requires Trusted Types for every
 * script sink and allows this policy's name alone, so an HTML or script-URL sink anywhere else in
 * the app is refused by the browser (a CSP violation) instead of going unnoticed.
 * - createHTML serves DOMPurify only (the markdown fallback where Element.setHTML is missing): it
 *   parses through this policy and returns nodes, never a string for another sink.
 * - createScriptURL signs this origin's scripts (the core worker, the service worker) and nothing else.
 * https://w3c.github.io/trusted-types/dist/spec/
 */

/** The policy's name: the only one the CSP's `trusted-types` directive lists. */
export const POLICY_NAME = 'rho';

/** The part of a Trusted Types policy we use (lib.dom has no Trusted Types yet). */
export interface RhoPolicy {
  createHTML(input: string): unknown;
  createScriptURL(input: string): unknown;
}

interface TrustedTypesFactory {
  createPolicy(name: string, rules: { createHTML: (s: string) => string; createScriptURL: (s: string) => string }): RhoPolicy;
}

function sameOriginScript(url: string): string {
  const parsed = new URL(url, location.href);
  if (parsed.origin !== location.origin) throw new TypeError(`Refused script from another origin: ${parsed.origin}`);
  return parsed.href;
}

const factory = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
// Created once: a second createPolicy with the same name is itself refused by the CSP.
const policy: RhoPolicy | null = factory?.createPolicy(POLICY_NAME, { createHTML: (html) => html, createScriptURL: sameOriginScript }) ?? null;

/** The policy DOMPurify parses with (null where the browser has no Trusted Types: DOMPurify then parses strings). */
export function purifyPolicy(): RhoPolicy | null {
  return policy;
}

/** A script URL of this origin, signed for `new Worker` and `serviceWorker.register` (a plain string without Trusted Types). */
export function trustedScriptURL(url: string | URL): string {
  const href = sameOriginScript(String(url));
  // A TrustedScriptURL stands in for the string at every sink that takes one.
  return (policy ? policy.createScriptURL(href) : href) as string;
}
