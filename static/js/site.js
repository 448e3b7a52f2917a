/* Behaviour of the pages, kept out of the HTML so that the Content-Security-Policy can forbid inline
 * scripts (script-src 'self'). Wired with data- attributes:
 *   <form data-confirm="Question?">          asks before submitting; Cancel keeps the page as it is
 *   <input data-filter-options="#id_players"> hides the options of that <select> whose text does not
 *                                             contain what is typed (Turkish case rules)
 *   <div data-focus-on-load tabindex="-1">     takes the focus when the page opens (an error summary)
 *   <div class="error-summary"><a href="#id">  a link to a field focuses it (opening its <details>)
 *   <details data-menu>                        the header's links: open on a wide screen, a menu on a narrow
 *                                             one (site.css, max-width 24em); Escape closes it
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

  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element && event.target.closest(".error-summary a[href^='#']");
    if (!link) {
      return;
    }
    var field = document.getElementById(link.getAttribute("href").slice(1));
    if (!field) {
      return;
    }
    event.preventDefault();
    var details = field.closest("details");
    if (details) {
      details.open = true;
    }
    field.scrollIntoView({block: "center"});
    field.focus({preventScroll: true});
  });

  function wireMenu(menu) {
    var narrow = window.matchMedia("(max-width: 24em)");
    function fit() {
      menu.open = !narrow.matches;
    }
    fit();
    if (narrow.addEventListener) {
      narrow.addEventListener("change", fit);
    }
    // on a phone the open menu covers the top of the page: Escape (wherever focus is), a tap outside it
    // and focus moving out of it close it
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && menu.open && narrow.matches) {
        var inside = menu.contains(document.activeElement);
        menu.open = false;
        if (inside) {
          menu.querySelector("summary").focus();
        }
      }
    });
    document.addEventListener("click", function (event) {
      if (menu.open && narrow.matches && !menu.contains(event.target)) {
        menu.open = false;
      }
    });
    menu.addEventListener("focusout", function (event) {
      if (menu.open && narrow.matches && event.relatedTarget && !menu.contains(event.relatedTarget)) {
        menu.open = false;
      }
    });
  }

  function init() {
    document.querySelectorAll("details[data-menu]").forEach(wireMenu);
    document.querySelectorAll("input[data-filter-options]").forEach(wireFilter);
    var first = document.querySelector("[data-focus-on-load]");
    if (first) {
      first.focus();
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
