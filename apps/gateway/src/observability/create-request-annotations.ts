import type { InferenceCallObserver } from "@gateway/pipeline";

/** Ids an inference call learnt (after authentication), for its request's log line. */
export interface RequestAnnotation {
  organization_id: string;
  project_id: string;
}

/**
 * Carries what an inference call learns (its organization and project) to the request's log
 * line, by request id. An entry lives from the call's start until both its line was written and
 * the call ended (in either order), so nothing is left behind.
 */
export function createRequestAnnotations(): { observer: InferenceCallObserver; take(requestId: string): RequestAnnotation | undefined } {
  const entries = new Map<string, { annotation: RequestAnnotation | undefined; ended: boolean; taken: boolean }>();
  return {
    observer: {
      callStarted(start) {
        const entry = { annotation: undefined as RequestAnnotation | undefined, ended: false, taken: false };
        entries.set(start.requestId, entry);
        return {
          authenticated(identity) {
            entry.annotation = { organization_id: identity.organization.id, project_id: identity.project.id };
          },
          callEnded() {
            if (entry.taken) entries.delete(start.requestId);
            else entry.ended = true;
          },
        };
      },
    },
    take(requestId) {
      const entry = entries.get(requestId);
      if (entry === undefined) return undefined;
      if (entry.ended) entries.delete(requestId);
      else entry.taken = true;
      return entry.annotation;
    },
  };
}
