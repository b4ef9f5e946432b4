import { JSONRPCServer, type JSONRPCRequest } from 'json-rpc-2.0';
import { CorralError } from '../../protocol/errors.ts';
import { ALL_METHODS } from '../../protocol/methods/index.ts';
import { checkParams } from '../../protocol/params-check.ts';
import { isPlainObject } from '../../protocol/plain-object.ts';
import type { Connection } from './connection.ts';
import type { HandlerBinding, RequestContext } from './handler.ts';
import type { Logger } from '../logger.ts';

type Id = string | number | null;
type Message = Record<string, unknown>;

function errorResponse(id: Id, error: CorralError): Message {
  return { jsonrpc: '2.0', id, error: error.toJSONRPC() };
}

function isValidId(value: unknown): value is Id {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * JSON-RPC 2.0 dispatch over json-rpc-2.0, wrapped so that every failure carries a numeric code
 * from the spec and a stable `error.data.code`: parse and request-shape errors are answered here,
 * params are checked against each method's declaration, and any other throw becomes `internal_error`.
 * This is the one place errors are wrapped.
 */
export class RpcServer {
  private readonly server = new JSONRPCServer<RequestContext>({ errorListener: () => {} });
  private accepting = true;

  constructor(private readonly log: Logger) {
    this.server.mapErrorToJSONRPCErrorResponse = (id, error) => {
      const wrapped = error instanceof CorralError ? error : new CorralError('internal_error', 'internal error; see the daemon log');
      return { jsonrpc: '2.0', id, error: wrapped.toJSONRPC() };
    };
    this.server.handleMethodNotFound = async (request) =>
      request.id === undefined
        ? null
        : (errorResponse(
            request.id,
            new CorralError('method_not_found', `unknown method "${request.method}"; see docs/protocol.md for the methods`),
          ) as never);
  }

  register(bindings: readonly HandlerBinding[]): void {
    for (const { method, handle } of bindings) {
      if (this.server.hasMethod(method.name)) throw new Error(`method ${method.name} registered twice`);
      // rpc.discover lists ALL_METHODS: serving anything else would break the published contract.
      if (!ALL_METHODS.some((declared) => declared.name === method.name)) throw new Error(`method ${method.name} is not declared in ALL_METHODS`);
      this.server.addMethod(method.name, async (params: unknown, context: RequestContext) => {
        if (!this.accepting) throw new CorralError('shutting_down', 'the daemon is stopping; start it again and retry');
        const checked = checkParams(method, params);
        try {
          return await handle(checked, context);
        } catch (error) {
          if (error instanceof CorralError) {
            // No client reads this answer (`cancelled` above all): the log is the only place it shows.
            if (context.signal.aborted) this.log.info({ method: method.name, code: error.code }, 'request ended after its client went away');
            throw error;
          }
          this.log.error({ err: error, method: method.name }, 'handler failed');
          throw new CorralError('internal_error', `${method.name} failed unexpectedly: ${(error as Error)?.message ?? error}; see the daemon log`);
        }
      });
    }
  }

  /** From now on every request is answered with `shutting_down`. */
  stopAccepting(): void {
    this.accepting = false;
  }

  /** Serves one line from a client and writes the reply, if any, back to it. Never throws. */
  async serveFrame(connection: Connection, frame: string): Promise<void> {
    let reply: Message | Message[] | null;
    try {
      reply = await this.replyTo(frame, { connection, signal: connection.signal });
    } catch (error) {
      this.log.error({ err: error }, 'dispatch failed');
      reply = errorResponse(null, new CorralError('internal_error', 'internal error; see the daemon log'));
    }
    if (reply !== null) connection.send(reply);
  }

  /** The reply to a line longer than the frame limit; the caller closes the connection. */
  frameTooLarge(limit: number): Message {
    return errorResponse(null, new CorralError('frame_too_large', `a line exceeded ${limit} bytes; the connection is closed`, { limit }));
  }

  private async replyTo(frame: string, context: RequestContext): Promise<Message | Message[] | null> {
    let payload: unknown;
    try {
      payload = JSON.parse(frame);
    } catch {
      return errorResponse(null, new CorralError('parse_error', 'the line is not valid JSON; send one JSON-RPC request per line'));
    }
    if (!Array.isArray(payload)) return this.replyToOne(payload, context);
    if (payload.length === 0) return errorResponse(null, new CorralError('invalid_request', 'an empty batch is not a request'));
    const replies = await Promise.all(payload.map((item) => this.replyToOne(item, context)));
    const present = replies.filter((r): r is Message => r !== null);
    return present.length > 0 ? present : null;
  }

  private async replyToOne(payload: unknown, context: RequestContext): Promise<Message | null> {
    const invalid = (id: Id, message: string) => errorResponse(id, new CorralError('invalid_request', message));
    if (!isPlainObject(payload)) return invalid(null, 'a request must be a JSON object');
    if ('id' in payload && !isValidId(payload.id)) return invalid(null, '"id" must be a string, a number or null');
    const id = (payload.id as Id | undefined) ?? null;
    if (payload.jsonrpc !== '2.0') return invalid(id, '"jsonrpc" must be "2.0"');
    if (typeof payload.method !== 'string') return invalid(id, '"method" must be a string');
    if ('params' in payload && typeof payload.params !== 'object') return invalid(id, '"params" must be an object');
    return (await this.server.receive(payload as unknown as JSONRPCRequest, context)) as Message | null;
  }
}

