package investigations

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

const historyPath = "chat/history.json"

// Chat answers a question about a completed investigation from its memory
// and saves both messages to chat/history.json. Errors: INVALID for an
// empty or over-long message, INVESTIGATION_NOT_COMPLETE before the
// investigation has completed.
func (m *Service) Chat(ctx context.Context, id, message string) (*investigation.ChatMessage, error) {
	message = strings.TrimSpace(message)
	if message == "" {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the message is empty")
	}
	if n := utf8.RuneCountInString(message); n > quarry.MaxChatMessageLen {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the message is %d characters; the limit is %d", n, quarry.MaxChatMessageLen)
	}
	if _, err := m.finished(ctx, id); err != nil {
		return nil, err
	}
	reply, err := m.chat.Answer(ctx, id, message)
	if err != nil {
		return nil, err
	}
	now := m.now()
	q := investigation.ChatMessage{MessageID: quarry.NewID(), SessionID: id, Role: investigation.ChatUser, Content: message, Timestamp: now}
	a := investigation.ChatMessage{MessageID: quarry.NewID(), SessionID: id, Role: investigation.ChatAssistant, Content: reply.Text,
		Timestamp: now, ArtifactsReferenced: reply.ArtifactsReferenced}
	if a.ArtifactsReferenced == nil {
		a.ArtifactsReferenced = []string{}
	}

	// Another process sharing the data dir may be appending too: the
	// history is read and rewritten under a file lock.
	unlock := m.lock(id)
	defer unlock()
	var hist []investigation.ChatMessage
	if err := m.cfg.Store.UpdateJSON(id, historyPath, &hist, func() error {
		hist = append(hist, q, a)
		return nil
	}); err != nil {
		return nil, err
	}
	return &a, nil
}

// History returns the chat of a session, oldest first.
func (m *Service) History(ctx context.Context, id string) ([]investigation.ChatMessage, error) {
	if _, err := m.cfg.Store.Session(id); err != nil {
		return nil, err
	}
	return m.history(id)
}

func (m *Service) history(id string) ([]investigation.ChatMessage, error) {
	var hist []investigation.ChatMessage
	err := m.cfg.Store.ReadJSON(id, historyPath, &hist)
	if errors.Is(err, fs.ErrNotExist) {
		return []investigation.ChatMessage{}, nil
	}
	return hist, err
}
