/**
 * A tap on the desk's event stream, under main's feed (DeskAlerts' `backendFor` seam): what the
 * backend sent on the wire before the feed drops anything it saw already, so a duplicate sent
 * after a reconnect shows here even though the bell would hide it. Used by the e2e spec that
 * kills the backend under a live desk and by the fault run that cuts the stream's connection.
 */
import { type AlertsBackend, backendAlerts } from '../../src/main/desk/alerts.js';
import type { BackendClient } from '../../src/main/backend/connection.js';

export interface EventTap {
  /** Event ids in the order they arrived. */
  onWire: string[];
  /** The last id each stream was opened after (null: from the start). */
  resumedFrom: Array<string | null>;
  /** What each failed stream said, as the feed heard it. */
  errors: string[];
  backendFor(api: BackendClient): AlertsBackend;
}

export function tapEventStream(): EventTap {
  const tap: EventTap = {
    onWire: [], resumedFrom: [], errors: [],
    backendFor(api) {
      const real = backendAlerts(api);
      return {
        ...real,
        stream(lastEventId, on) {
          tap.resumedFrom.push(lastEventId);
          return real.stream(lastEventId, {
            ...on,
            data(event) {
              const value = event as { data?: { id?: unknown }; id?: unknown };
              tap.onWire.push(String(value.data?.id ?? value.id));
              on.data(event);
            },
            error(error) {
              tap.errors.push(error instanceof Error ? error.message : String(error));
              on.error(error);
            },
          });
        },
      };
    },
  };
  return tap;
}
