/* Behaviour of the pages, kept out of the HTML so that the Content-Security-Policy can forbid inline
 * scripts (script-src 'self'). Wired with data- attributes:
 *   <form data-confirm="Question?">          asks before submitting; Cancel keeps the page as it is
 *   <input data-filter-options="#id_players"> hides the options of that <select> whose text does not
 *                                             contain what is typed (Turkish case rules)
 */
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-confirm")) {
      return;
    }
    if (!window.confirm(form.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  function wireFilter(input) {
    var select = document.querySelector(input.getAttribute("data-filter-options"));
    if (!select) {
      return;
    }
    input.addEventListener("input", function () {
      var q = input.value.toLocaleLowerCase("tr");
      select.querySelectorAll("option").forEach(function (o) {
        o.hidden = Boolean(q) && o.textContent.toLocaleLowerCase("tr").indexOf(q) === -1;
      });
    });
  }

  function init() {
    document.querySelectorAll("input[data-filter-options]").forEach(wireFilter);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
