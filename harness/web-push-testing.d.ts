// The parts of the `web-push-testing` package (a local push service: checks the VAPID JWT and decrypts
// aes128gcm with the subscription's keys) that harness/push-service.ts drives in-process.
declare module 'web-push-testing/src/server.js' {
  import type { RequestListener } from 'node:http';
  class WebPushTestingServer {
    constructor(model: unknown, port: number);
    _app: RequestListener;
    setRequestHandlers(): void;
  }
  export default WebPushTestingServer;
}
declare module 'web-push-testing/src/PushApiModel.js' {
  export class PushApiModel {
    notifyUrl: string;
    subscribe(options: { applicationServerKey: string; userVisibleOnly: string }): Promise<{ endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string }>;
    expireSubscription(clientHash: string): void;
    getNotifications(body: { clientHash: string }): { messages: string[] };
  }
}
