/** What a parser throws for a value it cannot take: the problem alone, as the variable that read it adds its name. */
export class InvalidValue extends Error {
  constructor(problem: string) {
    super(problem);
    this.name = 'InvalidValue';
  }
}
