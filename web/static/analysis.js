// analysis.js follows a running analysis: it listens to the analysis's
// server-sent events and moves each step of the plan (its box in the
// diagram and its entry in the list of steps) to the status the event
// gives, then reloads the page when the analysis ends so that the results
// show. The page works without it: a <noscript> refresh reloads it.
(function () {
  "use strict";
  var root = document.getElementById("analysis");
  if (!root || root.getAttribute("data-running") !== "true" || !window.EventSource) {
    return;
  }
  var url = root.getAttribute("data-events-url");
  var hasPlan = root.getAttribute("data-has-plan") === "true";
  var live = document.getElementById("live-status");
  var badge = document.getElementById("analysis-status");

  // The same words and marks as the server's taskStatusLabel, so that a
  // status never rests on colour alone.
  var labels = {
    pending: "○ Pending",
    running: "◔ Running",
    retry: "↻ Retrying",
    succeeded: "✓ Succeeded",
    failed: "✗ Failed",
    skipped: "– Skipped"
  };
  var finished = ["completed", "partial_success", "failed"];

  function say(text) {
    if (live) {
      live.textContent = text;
    }
  }

  function setTask(id, status) {
    if (!labels[status]) {
      return;
    }
    var cls = status === "retry" ? "running" : status;
    var node = document.getElementById("dag-node-" + id);
    if (node) {
      node.setAttribute("class", "dag-node status-" + cls);
      var text = node.querySelector(".dag-status");
      if (text) {
        text.textContent = labels[status];
      }
    }
    var item = document.getElementById("step-status-" + id);
    if (item) {
      item.className = "task-status status-" + cls;
      item.textContent = labels[status];
    }
  }

  var source = new EventSource(url);
  source.addEventListener("progress", function (msg) {
    var e;
    try {
      e = JSON.parse(msg.data);
    } catch (err) {
      return;
    }
    switch (e.step) {
      case "plan":
        if (!hasPlan) {
          // The server draws the diagram; fetch the page that has it.
          hasPlan = true;
          source.close();
          window.location.reload();
          return;
        }
        if (badge) {
          badge.className = "badge badge-executing";
          badge.textContent = "Running";
        }
        break;
      case "task":
        setTask(e.task_id, e.status);
        if (e.status === "succeeded" || e.status === "failed" || e.status === "skipped") {
          say("Step " + e.task_id + ": " + e.status + ".");
        }
        break;
      case "artifact":
      case "done":
      case "failed":
        say(e.message || "");
        break;
    }
  });
  source.addEventListener("end", function (msg) {
    source.close();
    var end = {};
    try {
      end = JSON.parse(msg.data);
    } catch (err) {
      // reload anyway
    }
    if (end.status && finished.indexOf(end.status) < 0) {
      // The server no longer runs it (it restarted): reloading would
      // show the same page again.
      say("This analysis is no longer running on the server; it was interrupted before it finished.");
      return;
    }
    say("The analysis has finished. Loading the results…");
    window.location.reload();
  });
  source.addEventListener("error", function () {
    if (source.readyState === EventSource.CLOSED) {
      say("The connection to the server was lost. Reload the page to see the latest state.");
    }
  });
})();
