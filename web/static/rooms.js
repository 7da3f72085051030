// rooms.js makes a data room's page live: it shows how far an upload has
// gone, follows the processing of the room's documents over the room's
// server-sent events (swapping in a document's finished row from the
// server; busy rows are also redrawn every few seconds), clears the ask box after an answer arrives, and on a page view
// scrolls the highlighted passage into view. Without it the forms post
// normally and the page reloads itself while documents are processed.
(function () {
  "use strict";

  function byId(id) {
    return document.getElementById(id);
  }

  // Upload progress, from htmx's XHR progress events.
  var upload = byId("upload-form");
  var bar = byId("upload-progress");
  var status = byId("upload-status");
  if (upload && bar) {
    upload.addEventListener("htmx:beforeRequest", function () {
      var f = byId("document-file");
      bar.value = 0;
      bar.hidden = false;
      if (status && f && f.files.length) {
        status.textContent = "Uploading " + f.files[0].name + "…";
      }
    });
    upload.addEventListener("htmx:xhr:progress", function (e) {
      if (e.detail.lengthComputable && e.detail.total > 0) {
        var pct = Math.round((100 * e.detail.loaded) / e.detail.total);
        bar.value = pct;
        bar.setAttribute("aria-valuetext", pct + "% uploaded");
      }
    });
    upload.addEventListener("htmx:afterRequest", function (e) {
      bar.hidden = true;
      if (e.detail.successful) {
        upload.reset();
      }
    });
  }

  // The ask box empties once its answer is on the page, which gets focus.
  var ask = byId("ask-form");
  if (ask) {
    ask.addEventListener("htmx:afterRequest", function (e) {
      if (!e.detail.successful) {
        return;
      }
      ask.reset();
      var first = document.querySelector("#answers .answer");
      if (first) {
        first.focus();
      }
    });
  }

  // Processing progress of the room's documents.
  var docs = byId("documents");
  if (docs && window.EventSource && window.htmx) {
    var busy = function (row) {
      var s = row.getAttribute("data-status");
      return s === "pending" || s === "processing";
    };
    // refresh swaps in a row as the server draws it now.
    var refresh = function (row) {
      htmx.ajax("GET", row.getAttribute("data-row-url"), { target: row, swap: "outerHTML" });
    };
    var text = function (tag, cls, s) {
      var el = document.createElement(tag);
      el.className = cls;
      el.textContent = s;
      return el;
    };
    var source = new EventSource(docs.getAttribute("data-events-url"));
    // On every (re)connection, rows that may have finished meanwhile are
    // drawn again.
    var refreshBusy = function () {
      docs.querySelectorAll(".doc-row").forEach(function (row) {
        if (busy(row)) {
          refresh(row);
        }
      });
    };
    source.addEventListener("open", refreshBusy);
    // Documents processed by another process (quarry worker) send no
    // events here: busy rows are drawn again every few seconds too.
    window.setInterval(refreshBusy, 5000);
    source.addEventListener("progress", function (msg) {
      var p;
      try {
        p = JSON.parse(msg.data);
      } catch (err) {
        return;
      }
      var row = byId("doc-" + p.document_id);
      if (!row) {
        return;
      }
      if (p.processing_status === "completed" || p.processing_status === "failed") {
        refresh(row);
        return;
      }
      row.setAttribute("data-status", p.processing_status);
      var cell = row.querySelector(".doc-status");
      var parts = [text("span", "badge badge-running", "Processing"), document.createTextNode(" "),
        text("span", "doc-step", p.message + (p.of ? " " + p.done + " of " + p.of : ""))];
      if (p.of) {
        var bar = document.createElement("progress");
        bar.className = "doc-progress";
        bar.max = p.of;
        bar.value = p.done;
        bar.setAttribute("aria-label", "Processing " + p.message);
        parts.push(document.createTextNode(" "), bar);
      }
      cell.replaceChildren.apply(cell, parts);
    });
  }

  // A page view brings the highlighted passage into view once the image
  // has its size.
  var image = byId("page-image");
  var mark = document.querySelector(".page-highlights .highlight");
  if (image && mark) {
    var show = function () {
      mark.scrollIntoView({ block: "center" });
    };
    if (image.complete) {
      show();
    } else {
      image.addEventListener("load", show);
    }
  }
})();
