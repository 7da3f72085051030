// progress.js follows a running investigation: it listens to the session's
// server-sent events, appends each progress event to the list, and reloads
// the page when the run ends so that the report (or the error) shows.
(function () {
  "use strict";
  var list = document.getElementById("progress");
  if (!list || !window.EventSource) {
    return;
  }
  var url = list.getAttribute("data-events-url");
  var seen = parseInt(list.getAttribute("data-seen") || "0", 10);
  var fallback = list.getAttribute("data-fallback") === "true";
  var status = document.getElementById("progress-status");

  function span(cls, text) {
    var s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    return s;
  }

  // item builds the same markup as the server's progress_item template.
  function item(e) {
    var li = document.createElement("li");
    li.className = "progress-item";
    if (e.iteration) {
      li.appendChild(span("progress-label", "Iteration " + e.iteration));
      if (e.decision) {
        li.appendChild(document.createTextNode(" "));
        li.appendChild(span("decision", e.decision));
      }
      li.appendChild(document.createTextNode(" "));
      li.appendChild(span("progress-text", e.finding || e.message || ""));
    } else {
      li.appendChild(span("progress-label", e.step || ""));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(span("progress-text", e.message || ""));
    }
    return li;
  }

  var source = new EventSource(url);
  source.addEventListener("progress", function (msg) {
    var seq = parseInt(msg.lastEventId, 10);
    if (!isNaN(seq)) {
      if (seq <= seen) {
        return; // already drawn by the server
      }
      seen = seq;
    }
    if (fallback) {
      // The server drew the list from the iteration logs; the stream
      // replays everything in order, so start the list again from it.
      fallback = false;
      list.replaceChildren();
    }
    var e;
    try {
      e = JSON.parse(msg.data);
    } catch (err) {
      return;
    }
    list.appendChild(item(e));
  });
  source.addEventListener("end", function () {
    source.close();
    if (status) {
      status.textContent = "The investigation has finished. Loading the result…";
    }
    window.location.reload();
  });
  source.addEventListener("error", function () {
    if (status && source.readyState === EventSource.CLOSED) {
      status.textContent = "The connection to the server was lost. Reload the page to see the latest progress.";
    }
  });
})();
