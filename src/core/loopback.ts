/**
 * Loopback hosts (127.0.0.0/8, localhost, ::1): the only places relctl talks plain HTTP or plain
 * SMTP to, because nothing there crosses a network.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === 'localhost' || h === '::1';
}
