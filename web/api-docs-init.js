// web/api-docs-init.js — starts Swagger UI on the API reference page (copied to api-docs/init.js
// by web/build.ts). A file, not an inline script: the pages' CSP allows scripts from the origin only.
window.ui = SwaggerUIBundle({ url: document.getElementById('api-reference').dataset.openapiUrl, dom_id: '#api-reference', deepLinking: true });
