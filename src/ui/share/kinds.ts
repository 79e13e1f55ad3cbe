// Names people read for the kinds of hits (secretlint's rules and the core's detectors).
const LABELS: Record<string, string> = {
  aws: 'AWS keys',
  github: 'GitHub tokens',
  gitlab: 'GitLab tokens',
  openai: 'OpenAI keys',
  anthropic: 'Anthropic keys',
  slack: 'Slack tokens',
  stripe: 'Stripe keys',
  npm: 'npm tokens',
  gcp: 'Google Cloud keys',
  sendgrid: 'SendGrid keys',
  shopify: 'Shopify tokens',
  'private-key': 'Private keys',
  basicauth: 'Passwords in URLs',
  'database-connection-string': 'Database connection strings',
  jwt: 'JSON Web Tokens',
  'home-path': 'Home-directory paths',
  'user-name': 'User names',
  email: 'E-mail addresses',
  'ip-address': 'IP addresses',
  'high-entropy': 'Random-looking strings next to key, token, secret or password',
};

/** The heading of a kind's group in the review pane. */
export function kindLabel(kind: string): string {
  return LABELS[kind] ?? `${kind.replace(/-/g, ' ')} (secretlint)`;
}

/** Secrets first, then personal data: the order of the groups. */
export function kindOrder(kind: string): number {
  const personal = ['jwt', 'high-entropy', 'email', 'ip-address', 'home-path', 'user-name'];
  const i = personal.indexOf(kind);
  return i < 0 ? 0 : i + 1;
}
