/* Live round pages (/t/<slug>/live/ and the hall screen /t/<slug>/tv/): results appear as they are
 * entered, without reloading. Plain script, no framework; wired by data- attributes (the
 * Content-Security-Policy forbids inline scripts):
 *
 *   <… data-live-url="/t/x/live.json"   the JSON to ask (tournaments.views.live_json)
 *      data-live-interval="3"           seconds between two asks
 *      data-live-key="…"                the round and its pairing; another key (a new round published,
 *                                       a pairing changed) reloads the page
 *      data-text-updated="Updated" data-text-offline="No connection…">
 *   <li data-board="3"> with [data-cell=result|note|sets]   the cells updated in place
 *   [data-live-progress] [data-live-status]                 "5 of 8 results in", "Updated 14:02:10"
 *
 * The server answers 304 while nothing changed (ETag); a hidden tab stops asking until shown again;
 * after a failed ask the next one waits longer (up to a minute).
 */
(function () {
  "use strict";

  var root = document.querySelector("[data-live-url]");
  if (!root || !window.fetch) {
    return;
  }
  var url = root.getAttribute("data-live-url");
  var every = (parseInt(root.getAttribute("data-live-interval"), 10) || 3) * 1000;
  var key = root.getAttribute("data-live-key");
  var progress = root.querySelector("[data-live-progress]");
  var status = root.querySelector("[data-live-status]");
  var failures = 0;
  var timer = null;

  function setText(el, text) {
    if (el && el.textContent !== text) {
      el.textContent = text;
      return true;
    }
    return false;
  }

  /* The server's time of the answer, in the site's time zone (Europe/Istanbul), not the device's:
   * the X-Server-Time header (fresh on a 304 too) or the JSON's server_time. */
  var serverTime = "";

  function flash(row) {
    row.classList.remove("fresh");
    void row.offsetWidth; // restart the animation
    row.classList.add("fresh");
  }

  function apply(data) {
    if (data.key !== key) {
      window.location.reload();
      return;
    }
    (data.boards || []).forEach(function (b) {
      var row = root.querySelector('[data-board="' + b.board + '"]');
      if (!row) {
        return;
      }
      var changed = setText(row.querySelector("[data-cell=result]"), b.result || "–");
      changed = setText(row.querySelector("[data-cell=note]"), b.note || "") || changed;
      changed = setText(row.querySelector("[data-cell=sets]"), b.sets_text || "") || changed;
      ["missing", "open", "done", "bye"].forEach(function (s) {
        row.classList.toggle(s, s === b.state);
      });
      if (changed) {
        flash(row);
      }
    });
    if (data.round) {
      setText(progress, data.progress);
    }
    root.classList.remove("offline");
    setText(status, root.getAttribute("data-text-updated") + " " + (serverTime || data.server_time || ""));
  }

  function schedule(delay) {
    window.clearTimeout(timer);
    timer = window.setTimeout(ask, delay);
  }

  function ask() {
    if (document.hidden) {
      return; // asked again when the tab is shown
    }
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (response) {
        if (!response.ok) {
          throw new Error(String(response.status));
        }
        serverTime = response.headers.get("X-Server-Time") || "";
        return response.json();
      })
      .then(function (data) {
        failures = 0;
        apply(data);
        schedule(every);
      })
      .catch(function () {
        failures += 1;
        root.classList.add("offline");
        setText(status, root.getAttribute("data-text-offline"));
        schedule(Math.min(60000, every * Math.pow(2, failures)));
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      schedule(0);
    }
  });
  schedule(every);
})();
