package jupyter

import (
	"context"

	"github.com/goldp/goldp/kernel/cell"
)

// Interpreter is what the kernel drives. The transport (this package) owns
// the sockets, signatures, the execution queue and message bookkeeping; the
// Interpreter only runs code and answers questions about it. It knows
// nothing of ZeroMQ and this package knows nothing of Go cells.
//
// Execute is called from one goroutine at a time. Complete, Inspect,
// IsComplete and Interrupt may be called concurrently with a running
// Execute and must answer without waiting for it.
type Interpreter interface {
	// Info describes the language for kernel_info_reply.
	Info() LanguageInfo
	// Execute runs one execute_request. While it runs it sends output
	// through out; it returns when the code has finished, failed or been
	// interrupted.
	Execute(ctx context.Context, req ExecuteRequest, out Output) ExecuteReply
	// Complete answers complete_request. cursorPos is a byte offset into
	// code (the transport converts the protocol's code-point cursor_pos
	// to bytes before the call, and the reply's CursorStart/CursorEnd
	// back from bytes to code points).
	Complete(ctx context.Context, code string, cursorPos int) CompleteReply
	// Inspect answers inspect_request; cursorPos is a byte offset into
	// code, as for Complete.
	Inspect(ctx context.Context, code string, cursorPos, detailLevel int) InspectReply
	// IsComplete answers is_complete_request.
	IsComplete(ctx context.Context, code string) IsCompleteReply
	// Interrupt stops the running Execute, if any (interrupt_request or
	// SIGINT). It returns at once; Execute then returns its reply.
	Interrupt()
	// Restart discards all state (shutdown_request with restart true).
	Restart(ctx context.Context) error
	// Shutdown releases everything; Output sent before it returns must
	// already have been delivered.
	Shutdown(ctx context.Context) error
}

// LanguageInfo is the language_info of kernel_info_reply plus the banner
// and help links.
type LanguageInfo struct {
	Name              string // "go"
	Version           string
	MIMEType          string // "text/x-go"
	FileExtension     string // ".go"
	PygmentsLexer     string
	CodeMirrorMode    string
	NBConvertExporter string
	Banner            string
	HelpLinks         []HelpLink
}

// HelpLink is an entry of kernel_info_reply's help_links.
type HelpLink struct{ Text, URL string }

// ExecuteRequest holds the fields of execute_request the interpreter needs.
type ExecuteRequest struct {
	Code            string
	Silent          bool
	StoreHistory    bool
	AllowStdin      bool
	StopOnError     bool
	ExecutionCount  int // the count this execution will be reported with
	UserExpressions map[string]string
}

// Output is how a running Execute sends output to the front end: the
// cell contract's Sink. Messages go out on IOPub with the running request
// as parent (a display with a display ID carries it in transient); Input
// goes through the stdin channel and fails with ErrStdinNotAllowed when
// the request did not allow stdin, and with ErrInputInterrupted when the
// kernel is interrupted or shut down while waiting. Implementations are
// safe for concurrent use.
type Output = cell.Sink

// ExecuteReply is the outcome of an execution. Status is "ok", "error" or
// "aborted". For "ok", Data (if not nil) is published as execute_result.
// For "error", the transport publishes an error message with EName,
// EValue and Traceback and puts the same fields in the reply.
type ExecuteReply struct {
	Status          string
	Data            map[string]any
	Metadata        map[string]any
	EName, EValue   string
	Traceback       []string
	Payload         []map[string]any
	UserExpressions map[string]any
}

// CompleteReply is the content of complete_reply (status "ok" is added by
// the transport).
type CompleteReply struct {
	Matches     []string
	CursorStart int // byte offset in code where the replaced text starts
	CursorEnd   int // byte offset in code where it ends
	Metadata    map[string]any
}

// InspectReply is the content of inspect_reply.
type InspectReply struct {
	Found    bool
	Data     map[string]any
	Metadata map[string]any
}

// IsCompleteReply is the content of is_complete_reply: Status is
// "complete", "incomplete", "invalid" or "unknown"; Indent is set for
// "incomplete".
type IsCompleteReply struct {
	Status string
	Indent string
}
