// The worker of pages without a password: no age library inside.
import { serve } from './serve.ts';

serve(null);
