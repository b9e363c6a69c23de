/**
 * Open price sockets per client address, so that one client cannot hold the whole process's
 * `wsClientsMax` and lock everyone else out. A socket counts from its upgrade to its close, in
 * whatever state it is (a pair still being looked up, a refusal still closing), so a client
 * cannot pile sockets up in any of them. Memory is one map entry per address with an open socket.
 */
export class AddressLimit {
  private readonly open = new Map<string, number>();

  constructor(private readonly perAddressMax: number) {}

  /** Counts one more socket for `address`; false, counting nothing, when it already has the most. */
  tryAcquire(address: string): boolean {
    const count = this.open.get(address) ?? 0;
    if (count >= this.perAddressMax) return false;
    this.open.set(address, count + 1);
    return true;
  }

  /** Call once per successful `tryAcquire`, when that socket has closed. */
  release(address: string): void {
    const count = this.open.get(address);
    if (count === undefined) return;
    if (count <= 1) this.open.delete(address);
    else this.open.set(address, count - 1);
  }

  /** Sockets `address` holds now. */
  count(address: string): number {
    return this.open.get(address) ?? 0;
  }
}
