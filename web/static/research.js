// research.js does two things on a research's page, which works without
// it. A citation in the report ([3]) opens a dialog with the passage it
// quotes and its source, instead of jumping to the fact's row in the
// table. A running research's stages move on as the server-sent events
// of /api/research/{id}/events arrive, and the page reloads when the
// research ends, so that its report shows.
(function () {
  "use strict";

  // Citations.
  var dialog = document.getElementById("citation-dialog");
  var opener = null;
  if (dialog && typeof dialog.showModal === "function") {
    var title = document.getElementById("citation-title");
    var body = document.getElementById("citation-body");
    var factLink = document.getElementById("citation-fact-link");
    document.addEventListener("click", function (ev) {
      var a = ev.target.closest ? ev.target.closest("a.cite-ref") : null;
      if (!a || ev.defaultPrevented || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) {
        return;
      }
      var id = a.getAttribute("data-fact");
      var tpl = document.getElementById("cite-" + id);
      if (!tpl || !tpl.content) {
        return;
      }
      ev.preventDefault();
      if (dialog.open) {
        dialog.close();
      }
      title.textContent = "Citation [" + a.getAttribute("data-n") + "]";
      body.replaceChildren(tpl.content.cloneNode(true));
      factLink.setAttribute("href", "#fact-" + id);
      opener = a;
      dialog.showModal();
      // The title takes the focus, not the Close button: the Enter that
      // opened the dialog from a link would otherwise go on to press it.
      title.focus();
    });
    // Links inside the dialog (the fact's row, its discrepancy) close it
    // first, so that the page under it can scroll and take the focus.
    dialog.addEventListener("click", function (ev) {
      var a = ev.target.closest ? ev.target.closest("a[href^='#']") : null;
      if (!a) {
        return;
      }
      ev.preventDefault();
      opener = null;
      dialog.close();
      var target = document.getElementById(a.getAttribute("href").slice(1));
      if (target) {
        history.replaceState(null, "", a.getAttribute("href"));
        target.scrollIntoView({ block: "center" });
        target.focus({ preventScroll: true });
      }
    });
    dialog.addEventListener("close", function () {
      if (opener) {
        opener.focus();
        opener = null;
      }
    });
  }

  // Live stages.
  var root = document.getElementById("research");
  if (!root || root.getAttribute("data-running") !== "true" || !window.EventSource) {
    return;
  }
  var list = document.getElementById("stages");
  var live = document.getElementById("research-live");
  var badge = document.getElementById("research-status");
  var seen = parseInt(list ? list.getAttribute("data-seen") : "0", 10) || 0;
  var order = ["planning", "executing", "verifying", "synthesizing"];
  // The same words as the server's researchStatusLabel and StateLabel.
  var statusLabels = {
    planning: "Planning",
    executing: "Reading sources",
    verifying: "Verifying",
    synthesizing: "Writing",
    completed: "Completed",
    failed: "Failed"
  };
  var stateLabels = { done: "done", current: "in progress", failed: "failed", pending: "not started" };

  function say(text) {
    if (live) {
      live.textContent = text;
    }
  }

  function setState(li, state) {
    if (!li) {
      return;
    }
    li.className = "stage stage-" + state;
    var s = li.querySelector(".stage-state");
    if (s) {
      s.textContent = "(" + stateLabels[state] + ")";
    }
  }

  function addMessage(li, text) {
    if (!li || !text) {
      return;
    }
    var ul = li.querySelector(".stage-messages");
    if (!ul) {
      ul = document.createElement("ul");
      ul.className = "stage-messages";
      li.appendChild(ul);
    }
    var item = document.createElement("li");
    item.textContent = text;
    ul.appendChild(item);
  }

  function stage(name) {
    return document.getElementById("stage-" + name);
  }

  function current() {
    for (var i = order.length - 1; i >= 0; i--) {
      var li = stage(order[i]);
      if (li && li.className.indexOf("stage-pending") < 0) {
        return li;
      }
    }
    return null;
  }

  function apply(e) {
    var end = stage("end");
    var i = order.indexOf(e.status);
    if (i >= 0) {
      for (var j = 0; j < order.length; j++) {
        setState(stage(order[j]), j < i ? "done" : j === i ? "current" : "pending");
      }
      addMessage(stage(e.status), e.message);
    } else if (e.status === "completed") {
      order.forEach(function (name) {
        setState(stage(name), "done");
      });
      setState(end, "done");
      addMessage(end, e.message);
    } else if (e.status === "failed") {
      setState(current(), "failed");
      if (end) {
        end.setAttribute("data-stage", "failed");
        var label = end.querySelector(".stage-label");
        if (label) {
          label.textContent = "Failed";
        }
      }
      setState(end, "failed");
      addMessage(end, e.message);
    } else {
      return;
    }
    if (badge && statusLabels[e.status]) {
      badge.className = "badge badge-" + e.status;
      badge.textContent = statusLabels[e.status];
    }
    say((statusLabels[e.status] || e.status) + (e.message ? ": " + e.message : ""));
  }

  var source = new EventSource(root.getAttribute("data-events-url"));
  source.addEventListener("progress", function (msg) {
    // The stream starts with every stage so far; the page has those.
    if ((parseInt(msg.lastEventId, 10) || 0) <= seen) {
      return;
    }
    var e;
    try {
      e = JSON.parse(msg.data);
    } catch (err) {
      return;
    }
    apply(e);
  });
  source.addEventListener("end", function (msg) {
    source.close();
    var end = {};
    try {
      end = JSON.parse(msg.data);
    } catch (err) {
      // reload anyway
    }
    if (end.status !== "completed" && end.status !== "failed") {
      say("This research is no longer running on the server; it was interrupted before it finished.");
      return;
    }
    say("The research has " + end.status + ". Loading the results…");
    window.location.reload();
  });
  source.addEventListener("error", function () {
    if (source.readyState === EventSource.CLOSED) {
      say("The connection to the server was lost. Reload the page to see the latest state.");
    }
  });
})();
