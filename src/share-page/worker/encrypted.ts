// The worker of password-protected pages: the reader API plus age decryption (passphrase, scrypt).
import { decryptPayload } from './decrypt.ts';
import { serve } from './serve.ts';

serve(decryptPayload);
