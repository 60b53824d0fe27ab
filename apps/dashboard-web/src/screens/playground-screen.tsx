import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { EmptyState } from "../components/empty-state.js";
import { ErrorNotice } from "../components/error-notice.js";
import { CheckboxField, SelectField, TextAreaField } from "../components/fields.js";
import { FormField } from "../components/form-field.js";
import { PageHeader } from "../components/page-header.js";
import { useNames } from "../components/use-names.js";
import { formatDuration, formatNumber } from "../format/format-number.js";
import { type PlaygroundChatResult, streamPlaygroundChat } from "../playground/stream-playground-chat.js";
import { useSession } from "../session/session-context.js";

type ChatMessage = {
  role: "user" | "assistant";
  content: string;
};

/**
 * The playground: chat with a model as one of your API keys (its policies, budgets and limits
 * apply, and the call is recorded like any other), streaming the answer as it arrives.
 */
export function PlaygroundScreen() {
  const { canUseProject } = useSession();
  const names = useNames();
  const queryClient = useQueryClient();
  const keys = useQuery(dashboardQueries.apiKeys({ status: "active", limit: 100 }));
  const connections = useQuery(dashboardQueries.connections());
  const routes = useQuery(dashboardQueries.routes());
  const [keyId, setKeyId] = useState("");
  const [model, setModel] = useState("");
  const [system, setSystem] = useState("");
  const [stream, setStream] = useState(true);
  const [input, setInput] = useState("");
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [partial, setPartial] = useState<string | null>(null);
  const [result, setResult] = useState<(PlaygroundChatResult & { elapsedMs: number }) | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);
  const modelListId = useId();
  const usableKeys = (keys.data?.data ?? []).filter((key) => canUseProject(key.project_id));
  const models = [
    ...(connections.data?.data ?? []).filter((connection) => connection.enabled).flatMap((connection) => connection.models.map((entry) => `${connection.name}/${entry}`)),
    ...(routes.data?.data ?? []).map((route) => route.alias),
  ];
  useEffect(() => {
    if (keyId === "" && usableKeys[0]) setKeyId(usableKeys[0].id);
  }, [keyId, usableKeys]);
  useEffect(() => {
    if (model === "" && models[0]) setModel(models.find((entry) => entry.endsWith("/chat")) ?? models[0]);
  }, [model, models]);
  useEffect(() => () => abort.current?.abort(), []);

  const send = async () => {
    const text = input.trim();
    if (text === "" || keyId === "" || model.trim() === "" || partial !== null) return;
    const conversation: ChatMessage[] = [...messages, { role: "user", content: text }];
    setMessages(conversation);
    setInput("");
    setError(null);
    setResult(null);
    setPartial("");
    const controller = new AbortController();
    abort.current = controller;
    const started = performance.now();
    let received = "";
    try {
      const answer = await streamPlaygroundChat({
        request: {
          model: model.trim(),
          api_key_id: keyId,
          stream,
          messages: [...(system.trim() ? [{ role: "system" as const, content: system.trim() }] : []), ...conversation],
        },
        signal: controller.signal,
        onDelta: (delta) => {
          received += delta;
          setPartial(received);
        },
      });
      setMessages([...conversation, { role: "assistant", content: answer.content }]);
      setResult({ ...answer, elapsedMs: performance.now() - started });
    } catch (failure) {
      if (received !== "") setMessages([...conversation, { role: "assistant", content: received }]);
      if ((failure as Error).name !== "AbortError") setError(failure);
    } finally {
      setPartial(null);
      abort.current = null;
      void queryClient.invalidateQueries({ queryKey: ["usage"] });
    }
  };

  if (keys.isSuccess && usableKeys.length === 0) {
    return (
      <>
        <PageHeader title="Playground" />
        <EmptyState title="No API key to chat as" action={<Link to="/api-keys">Create an API key</Link>}>
          The playground calls models as one of your active keys, so its policies, budgets and rate limits apply.
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Playground" description="Chat with a model as one of your API keys. Its policies, budgets and limits apply, and the call shows up in usage." />
      <div className="playground">
        <section className="card stack" aria-label="Settings">
          <SelectField label="API key" value={keyId} onChange={setKeyId} options={usableKeys.map((key) => ({ value: key.id, label: `${key.name} · ${names.project(key.project_id)}` }))} />
          <FormField label="Model" hint="A model id or a route alias">
            {(control) => (
              <>
                <input {...control} type="text" list={modelListId} value={model} onChange={(event) => setModel(event.target.value)} autoComplete="off" />
                <datalist id={modelListId}>
                  {models.map((entry) => (
                    <option key={entry} value={entry} />
                  ))}
                </datalist>
              </>
            )}
          </FormField>
          <TextAreaField label="System prompt (optional)" value={system} onChange={setSystem} rows={3} />
          <CheckboxField label="Stream the answer" checked={stream} onChange={setStream} />
          <button type="button" className="button" onClick={() => { setMessages([]); setResult(null); setError(null); }} disabled={partial !== null || messages.length === 0}>
            Clear conversation
          </button>
        </section>
        <section className="card stack" aria-label="Conversation">
          <div className="conversation" aria-live="polite" data-testid="conversation">
            {messages.length === 0 && partial === null ? <p className="muted">Send a message to start.</p> : null}
            {messages.map((message, index) => (
              <div key={index} className={`message ${message.role}`} data-testid={`message-${message.role}`}>
                <span className="role">{message.role === "user" ? "You" : "Assistant"}</span>
                {message.content}
              </div>
            ))}
            {partial !== null ? (
              <div className="message assistant" data-testid="message-streaming" aria-busy="true">
                <span className="role">Assistant</span>
                {partial || "…"}
              </div>
            ) : null}
          </div>
          {error ? <ErrorNotice error={error} title="The call failed" /> : null}
          {result ? (
            <div className="call-facts" data-testid="call-facts">
              <span>
                Request id <strong className="mono" data-testid="playground-request-id">{result.requestId ?? "–"}</strong>
              </span>
              {result.provider ? (
                <span>
                  Provider <strong>{result.provider}</strong>
                </span>
              ) : null}
              {result.model ? (
                <span>
                  Model <strong className="mono">{result.model}</strong>
                </span>
              ) : null}
              {result.usage ? (
                <span data-testid="playground-usage">
                  Tokens <strong>{formatNumber(result.usage.prompt_tokens)}</strong> in, <strong>{formatNumber(result.usage.completion_tokens)}</strong> out
                </span>
              ) : null}
              {result.finishReason ? (
                <span>
                  Finish <strong>{result.finishReason}</strong>
                </span>
              ) : null}
              <span>
                Time <strong>{formatDuration(result.elapsedMs)}</strong>
              </span>
            </div>
          ) : null}
          <form
            className="stack"
            onSubmit={(event) => {
              event.preventDefault();
              void send();
            }}
          >
            <TextAreaField
              label="Message"
              value={input}
              onChange={setInput}
              rows={3}
              hint="Ctrl+Enter sends"
              onKeyDown={(event) => {
                if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  void send();
                }
              }}
            />
            <div className="actions">
              {partial !== null ? (
                <button type="button" className="button" onClick={() => abort.current?.abort()}>
                  Stop
                </button>
              ) : null}
              <button type="submit" className="button primary" disabled={partial !== null || input.trim() === "" || keyId === "" || model.trim() === ""}>
                {partial !== null ? "Answering…" : "Send"}
              </button>
            </div>
          </form>
        </section>
      </div>
    </>
  );
}
