import { defineConfig } from 'vite';

export default defineConfig({
  test: {
    include: ['test/{core,storage,worker,build}/**/*.test.ts'],
    environment: 'node',
  },
});
