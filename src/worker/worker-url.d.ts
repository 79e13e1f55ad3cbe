// vite's `?worker&url` import (vite/client declares it, but the worker's tsconfig has no vite types).
declare module '*?worker&url' {
  const url: string;
  export default url;
}
