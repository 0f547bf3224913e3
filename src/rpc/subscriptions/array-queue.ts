// A first-in first-out queue over an array with a moving head. Array.prototype.shift moves every
// element that is left, so at tens of thousands of waiting items it costs more than the delivery
// itself; here a shift only moves the head, and the part already taken is cut off once it is most
// of the array (past a small floor, so short queues never copy).
const CUT_AFTER = 1024;

export class ArrayQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, taken off the queue; undefined when the queue is empty. */
  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined; // the queue no longer keeps it alive
    this.head++;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > CUT_AFTER && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
