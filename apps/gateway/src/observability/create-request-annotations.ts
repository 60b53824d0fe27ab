import type { InferenceCallObserver } from "@gateway/pipeline";

/** Ids an inference call learnt (after authentication), for its request's log line. */
export interface RequestAnnotation {
  organization_id: string;
  project_id: string;
}

/**
 * Carries what an inference call learns (its organization and project) to the request's log
 * line, by request id. An entry lives from authentication until the line is written or the call
 * ended, whichever comes last, so nothing is left behind.
 */
export function createRequestAnnotations(): { observer: InferenceCallObserver; take(requestId: string): RequestAnnotation | undefined } {
  const annotations = new Map<string, RequestAnnotation>();
  return {
    observer: {
      callStarted(start) {
        return {
          authenticated(identity) {
            annotations.set(start.requestId, { organization_id: identity.organization.id, project_id: identity.project.id });
          },
          callEnded() {
            annotations.delete(start.requestId);
          },
        };
      },
    },
    take(requestId) {
      const annotation = annotations.get(requestId);
      annotations.delete(requestId);
      return annotation;
    },
  };
}
