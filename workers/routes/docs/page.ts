/**
 * Swagger UI, as the reference's `/api/v1/docs` shows it (operations and tags sorted alphabetically, no explorer
 * bar), its script and styles loaded from a CDN at a pinned version: the Worker ships no UI assets.
 */
const SWAGGER_UI = 'https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.35.0';

export function swaggerPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>edge-mirror REST API</title>
<link rel="stylesheet" href="${SWAGGER_UI}/swagger-ui.css">
<style>.swagger-ui .topbar { display: none; }</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="${SWAGGER_UI}/swagger-ui-bundle.js" crossorigin="anonymous"></script>
<script>
window.ui = SwaggerUIBundle({
  url: '/api/v1/docs/openapi.json',
  dom_id: '#swagger-ui',
  operationsSorter: 'alpha',
  tagsSorter: 'alpha',
  deepLinking: true,
});
</script>
</body>
</html>
`;
}
