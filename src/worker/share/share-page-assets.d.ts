/** The share page's built script, styles and worker (vite.share-page.ts serves this module). */
declare module 'virtual:rho-share-page' {
  const assets: import('./page-template.ts').SharePageAssets;
  export default assets;
}
