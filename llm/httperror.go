package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// HTTPError is the error for a provider's answer with an error status: the
// kind comes from the status (KindForStatus), the wait hint from the
// retry-after headers (RetryAfter, relative to now) and the message from the
// body's "error" field when the body is JSON, as both Anthropic
// ({"error":{"type":...,"message":...}}) and OpenAI-compatible servers
// ({"error":{"message":...}} or {"error":"..."}) send it.
func HTTPError(provider string, status int, header http.Header, body []byte, now time.Time) *Error {
	return &Error{Kind: KindForStatus(status), Status: status, Provider: provider,
		RetryAfter: RetryAfter(header, now), Message: bodyMessage(status, body)}
}

// CallError classifies the failure of one HTTP call that a provider client
// made through its SDK. resp is the HTTP response when one arrived, with a
// readable Body holding what the server sent; err is the SDK's error. The
// result is ctx's error when ctx ended; HTTPError for an error status;
// KindMalformed for a success status whose body could not be read;
// KindUnavailable with Status 0 when no answer came (connection refused,
// reset, DNS); and KindInvalid when the request could not even be built.
// Every occurrence of secret (the API key) is cut from the message.
func CallError(ctx context.Context, provider, secret string, resp *http.Response, err error, now time.Time) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var e *Error
	var urlErr *url.Error
	switch {
	case resp != nil && resp.StatusCode >= 400:
		var body []byte
		if resp.Body != nil {
			body, _ = io.ReadAll(resp.Body)
		}
		e = HTTPError(provider, resp.StatusCode, resp.Header, body, now)
	case resp != nil:
		e = &Error{Kind: KindMalformed, Status: resp.StatusCode, Provider: provider, Err: err,
			Message: "unreadable reply: " + err.Error()}
	case errors.As(err, &urlErr):
		e = &Error{Kind: KindUnavailable, Provider: provider, Err: err, Message: "no answer: " + err.Error()}
	default:
		e = &Error{Kind: KindInvalid, Provider: provider, Err: err, Message: "request not sent: " + err.Error()}
	}
	if secret != "" {
		e.Message = strings.ReplaceAll(e.Message, secret, "[redacted]")
	}
	return e
}

// maxMessage bounds how much of a provider's error text reaches a message.
const maxMessage = 300

func bodyMessage(status int, body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var obj struct{ Type, Message string }
		var s string
		switch {
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			if obj.Type != "" {
				return truncate(obj.Type + ": " + obj.Message)
			}
			return truncate(obj.Message)
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return truncate(s)
		case v.Message != "":
			return truncate(v.Message)
		}
	}
	text := http.StatusText(status)
	if text == "" {
		text = fmt.Sprintf("status %d", status)
	}
	b := strings.TrimSpace(string(body))
	switch {
	case b == "":
		return text
	case strings.HasPrefix(b, "<"):
		return text + " (an HTML page, not an API answer)"
	}
	return text + ": " + truncate(strings.Join(strings.Fields(b), " "))
}

func truncate(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
