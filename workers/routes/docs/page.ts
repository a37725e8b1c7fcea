import { streamsSection } from './streams-section.ts';
import { swaggerUiAsset } from './swagger-ui-assets.ts';

/**
 * Swagger UI, as the reference's `/api/v1/docs` shows it (operations and tags sorted alphabetically, no explorer
 * bar), its script and styles served by this Worker (swagger-ui-assets.ts): the page loads nothing from another
 * origin. `validatorUrl: null` keeps Swagger UI from sending the document to its public validator. Below the
 * operations, the WebSocket streams, which the document cannot describe (streams-section.ts).
 */
export function swaggerPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>edge-mirror REST API</title>
<link rel="icon" type="image/png" href="${swaggerUiAsset('favicon-32x32.png')}">
<link rel="stylesheet" href="${swaggerUiAsset('swagger-ui.css')}">
<style>.swagger-ui .topbar { display: none; } #websocket-streams { padding-bottom: 40px; } #websocket-streams td, #websocket-streams th { padding: 4px 8px; text-align: left; vertical-align: top; }</style>
</head>
<body>
<div id="swagger-ui"></div>
${streamsSection()}
<script src="${swaggerUiAsset('swagger-ui-bundle.js')}"></script>
<script>
window.ui = SwaggerUIBundle({
  url: '/api/v1/docs/openapi.json',
  dom_id: '#swagger-ui',
  operationsSorter: 'alpha',
  tagsSorter: 'alpha',
  deepLinking: true,
  validatorUrl: null,
});
</script>
</body>
</html>
`;
}
