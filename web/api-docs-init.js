// web/api-docs-init.js — starts Swagger UI on the API reference page (copied to api-docs/init.js
// by web/build.ts). A file, not an inline script: the pages' CSP allows scripts from the origin only.
// Besides starting it, it fixes what axe finds in Swagger UI and Swagger UI has no option for
// (its colours are fixed in web/api-docs/reference.css). Through its plugin API:
// - An operation's summary is one <button>; with deep linking Swagger UI puts the path inside it
//   as a link, a control inside a control (nested-interactive: a screen reader announces the
//   pair badly). The path is plain text there; the address still follows the opened operation.
// - "Try it out"'s request body <textarea> has no name (label): "Request body".
// - The Authorize dialog's close button is an icon alone (button-name): it gets a hidden "Close".
// - Buttons whose aria-label drops their visible word ("Authorize" named "Apply credentials")
//   keep the word as their name, so a voice user can say what they see (label-content-name-mismatch).
// On the rendered page (attributes Swagger UI gives no way to pass down; React leaves attributes
// it does not manage alone, and new elements are fixed as they appear):
// - The servers <select> sits in an empty <label> (select-name): named after its title,
//   "Servers"; a parameter's control (an enum's <select>, an array's <textarea>) after the
//   parameter.
// - Examples, responses and the curl command scroll inside their box (scrollable-region-focusable):
//   the box takes the focus, so the keyboard can scroll it too.
// The examples are highlighted in the "arta" theme: the default ("agate") draws numbers at 3.4:1.
// And "Try it out" sends to the API this page was served with, which the CSP allows
// (connect-src 'self' when it is /api, as npm start and CloudFront serve it), not to the
// document's own servers entry (the local default port).
(() => {
  var root = document.getElementById('api-reference');
  var documentUrl = root.dataset.openapiUrl;
  var apiBase = new URL(documentUrl.replace(/\/openapi\.json$/, ''), location.href).href;

  function AccessibleReference(system) {
    var React = system.React;
    var h = React.createElement;
    return {
      wrapComponents: {
        // Operation paths are `tag/operationId`; a tag's own deep link (in its heading, not in a
        // button) stays a link.
        DeepLink: (Original) => (props) =>
          String(props.path).indexOf('/') >= 0 ? h('span', null, props.text) : h(Original, props),
        TextArea: (Original) => (props) => {
          var body = !props['aria-label'] && String(props.className).indexOf('body-param__text') >= 0;
          return h(Original, body ? Object.assign({ 'aria-label': 'Request body' }, props) : props);
        },
        CloseIcon: (Original) => (props) =>
          h(React.Fragment, null, h(Original, props), h('span', { className: 'visually-hidden' }, 'Close')),
        Button: (Original) => (props) => {
          var label = props['aria-label'];
          if (typeof label !== 'string' || typeof props.children !== 'string' || label.indexOf(props.children) >= 0)
            return h(Original, props);
          var named = Object.assign({}, props);
          delete named['aria-label'];
          return h(Original, named);
        },
      },
    };
  }

  // No name from any source axe accepts: aria-label(ledby), title, a placeholder (not on a
  // <select>), or a <label> with text of its own (a wrapping label's text includes the
  // control's: its options).
  function unnamed(control) {
    if (control.getAttribute('aria-label') || control.getAttribute('aria-labelledby') || control.getAttribute('title'))
      return false;
    if (control.tagName !== 'SELECT' && control.getAttribute('placeholder')) return false;
    return !Array.prototype.some.call(control.labels || [], (label) => {
      var own = label.cloneNode(true);
      own.querySelectorAll('select, input, textarea').forEach((c) => {
        c.remove();
      });
      return own.textContent.trim() !== '';
    });
  }

  function fixRendered() {
    var servers = root.querySelector('select#servers');
    if (servers && unnamed(servers)) servers.setAttribute('aria-label', 'Servers');
    root
      .querySelectorAll('tr[data-param-name] select, tr[data-param-name] input, tr[data-param-name] textarea')
      .forEach((control) => {
        if (control.type !== 'checkbox' && control.type !== 'file' && unnamed(control))
          control.setAttribute('aria-label', control.closest('tr').dataset.paramName);
      });
    root.querySelectorAll('pre.microlight:not([tabindex]), pre.curl:not([tabindex])').forEach((pre) => {
      pre.setAttribute('tabindex', '0');
    });
  }
  // Only added elements matter; the fixes' own attribute changes do not call it again.
  new MutationObserver(fixRendered).observe(root, { childList: true, subtree: true });

  fetch(documentUrl)
    .then((res) => {
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.json();
    })
    .then((spec) => {
      spec.servers = [{ url: apiBase, description: 'The API this page is served with' }];
      window.ui = SwaggerUIBundle({
        spec: spec,
        dom_id: '#api-reference',
        deepLinking: true,
        syntaxHighlight: { theme: 'arta' },
        plugins: [AccessibleReference],
      });
    })
    .catch((err) => {
      root.textContent = `The API description ${documentUrl} could not be loaded (${err.message}).`;
      root.setAttribute('role', 'alert');
    });
})();
