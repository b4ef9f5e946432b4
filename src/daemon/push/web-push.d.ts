// The parts of the `web-push` package (RFC 8291 payload encryption, RFC 8292 VAPID) the push room uses.
declare module 'web-push' {
  interface RequestDetails {
    method: 'POST';
    headers: Record<string, string | number>;
    body: Buffer | null;
    endpoint: string;
  }
  interface RequestOptions {
    vapidDetails: { subject: string; publicKey: string; privateKey: string };
    TTL?: number;
    urgency?: 'very-low' | 'low' | 'normal' | 'high';
    topic?: string;
    contentEncoding?: 'aes128gcm';
  }
  interface Subscription {
    endpoint: string;
    keys: { p256dh: string; auth: string };
  }
  const webpush: {
    generateVAPIDKeys(): { publicKey: string; privateKey: string };
    generateRequestDetails(subscription: Subscription, payload: string | Buffer | null, options: RequestOptions): RequestDetails;
  };
  export default webpush;
}
