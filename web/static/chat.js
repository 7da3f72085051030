// chat.js keeps the newest chat message in view: on page load and after
// each answer htmx appends to #chat-messages.
(function () {
  "use strict";
  function toBottom() {
    var log = document.getElementById("chat-messages");
    if (log) {
      log.scrollTop = log.scrollHeight;
    }
  }
  document.addEventListener("DOMContentLoaded", toBottom);
  document.addEventListener("htmx:afterSettle", function (e) {
    if (e.target && e.target.id === "chat-messages") {
      toBottom();
    }
  });
})();
