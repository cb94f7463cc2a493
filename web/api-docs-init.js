// web/api-docs-init.js — starts Swagger UI on the API reference page (copied to api-docs/init.js
// by web/build.ts). A file, not an inline script: the pages' CSP allows scripts from the origin only.
// Besides starting it, two fixes Swagger UI does not offer as options, made through its plugin API:
// - An operation's summary is one <button>; with deep linking Swagger UI puts the path inside it
//   as a link, a control inside a control (axe: nested-interactive; a screen reader announces the
//   pair badly). The path is plain text there; the address still follows the opened operation.
// - The servers <select> sits in an empty <label> (axe: select-name, critical): it is named
//   after its visible title, "Servers". "Try it out"'s request body <textarea> has no name
//   either (axe: label); the Authorize dialog's close button is an icon alone (button-name).
// - Buttons whose aria-label drops their visible word ("Authorize" named "Apply credentials")
//   keep the word as their name, so a voice user can say what they see (label-content-name-mismatch).
// And "Try it out" sends to the API this page was served with, which the CSP allows
// (connect-src 'self' when it is /api, as npm start and CloudFront serve it), not to the
// document's own servers entry (the local default port).
(function () {
  var root = document.getElementById('api-reference');
  var documentUrl = root.dataset.openapiUrl;
  var apiBase = new URL(documentUrl.replace(/\/openapi\.json$/, ''), location.href).href;

  function AccessibleReference(system) {
    var h = system.React.createElement;
    return {
      wrapComponents: {
        // Operation paths are `tag/operationId`; a tag's own deep link (in its heading, not in a
        // button) stays a link.
        DeepLink: function (Original) {
          return function (props) {
            return String(props.path).indexOf('/') >= 0 ? h('span', null, props.text) : h(Original, props);
          };
        },
        TextArea: function (Original) {
          return function (props) {
            var unnamed = !props['aria-label'] && String(props.className).indexOf('body-param__text') >= 0;
            return h(Original, unnamed ? Object.assign({ 'aria-label': 'Request body' }, props) : props);
          };
        },
        CloseIcon: function (Original) {
          return function (props) {
            return h(system.React.Fragment, null, h(Original, props), h('span', { className: 'visually-hidden' }, 'Close'));
          };
        },
        Button: function (Original) {
          return function (props) {
            var label = props['aria-label'];
            if (typeof label !== 'string' || typeof props.children !== 'string' || label.indexOf(props.children) >= 0) return h(Original, props);
            var named = Object.assign({}, props);
            delete named['aria-label'];
            return h(Original, named);
          };
        },
        Servers: function (Original) {
          return class NamedServers extends system.React.Component {
            constructor(props) {
              super(props);
              this.box = system.React.createRef();
            }
            componentDidMount() {
              this.name();
            }
            componentDidUpdate() {
              this.name();
            }
            name() {
              var select = this.box.current && this.box.current.querySelector('select');
              if (select && !select.hasAttribute('aria-label')) select.setAttribute('aria-label', 'Servers');
            }
            render() {
              return h('div', { ref: this.box }, h(Original, this.props));
            }
          };
        },
      },
    };
  }

  fetch(documentUrl)
    .then(function (res) {
      if (!res.ok) throw new Error('HTTP ' + res.status);
      return res.json();
    })
    .then(function (spec) {
      spec.servers = [{ url: apiBase, description: 'The API this page is served with' }];
      window.ui = SwaggerUIBundle({ spec: spec, dom_id: '#api-reference', deepLinking: true, plugins: [AccessibleReference] });
    })
    .catch(function (err) {
      root.textContent = 'The API description ' + documentUrl + ' could not be loaded (' + err.message + ').';
      root.setAttribute('role', 'alert');
    });
})();
