// Swagger UI's files, bundled into the Worker as Data modules (wrangler.toml `[[rules]]`): their bytes, not code.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const bytes: ArrayBuffer;
  export default bytes;
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const bytes: ArrayBuffer;
  export default bytes;
}
declare module 'swagger-ui-dist/favicon-32x32.png' {
  const bytes: ArrayBuffer;
  export default bytes;
}
