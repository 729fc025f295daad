/**
 * TestAccDynamicProviderSimple (pulumi/pulumi tests/examples/dynamic-provider/simple), in this project's words:
 * resources that compute with numbers, each one's inputs the outputs of others, one provider class per
 * operation (a base class taking the operation, a subclass with its own check).
 */
import * as pulumi from "@pulumi/pulumi";

type Operation = (left: number, right: number) => Record<string, number>;

class OperationProvider implements pulumi.dynamic.ResourceProvider {
  constructor(private readonly operation: Operation) {}

  async check(_olds: unknown, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
    return { inputs: news };
  }
  async diff(): Promise<pulumi.dynamic.DiffResult> {
    return {};
  }
  async create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
    return { id: "0", outs: this.operation(Number(inputs.left), Number(inputs.right)) };
  }
  async update(
    _id: string,
    _olds: unknown,
    news: Record<string, unknown>,
  ): Promise<pulumi.dynamic.UpdateResult> {
    return { outs: this.operation(Number(news.left), Number(news.right)) };
  }
  async delete(): Promise<void> {}
}

class DivisionProvider extends OperationProvider {
  constructor() {
    super((left, right) => ({ quotient: Math.floor(left / right), remainder: left % right }));
  }
  override async check(_olds: unknown, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
    const failures =
      Number(news.right) === 0 ? [{ property: "right", reason: "divisor must be non-zero" }] : [];
    return { inputs: news, failures };
  }
}

type Operand = pulumi.Input<number>;

export class Sum extends pulumi.dynamic.Resource {
  private static readonly provider = new OperationProvider((left, right) => ({ sum: left + right }));
  declare readonly sum: pulumi.Output<number>;
  constructor(name: string, left: Operand, right: Operand) {
    super(Sum.provider, name, { left, right, sum: undefined }, undefined);
  }
}

export class Product extends pulumi.dynamic.Resource {
  private static readonly provider = new OperationProvider((left, right) => ({ product: left * right }));
  declare readonly product: pulumi.Output<number>;
  constructor(name: string, left: Operand, right: Operand) {
    super(Product.provider, name, { left, right, product: undefined }, undefined);
  }
}

export class Difference extends pulumi.dynamic.Resource {
  private static readonly provider = new OperationProvider((left, right) => ({ difference: left - right }));
  declare readonly difference: pulumi.Output<number>;
  constructor(name: string, left: Operand, right: Operand) {
    super(Difference.provider, name, { left, right, difference: undefined }, undefined);
  }
}

export class Division extends pulumi.dynamic.Resource {
  private static readonly provider = new DivisionProvider();
  declare readonly quotient: pulumi.Output<number>;
  declare readonly remainder: pulumi.Output<number>;
  constructor(name: string, left: Operand, right: Operand) {
    super(Division.provider, name, { left, right, quotient: undefined, remainder: undefined }, undefined);
  }
}

/** The engine example's program: ((x + y)² − w) ÷ (x + y), quotient plus remainder, from the `simple` config. */
export function arithmeticProgram(): { outputSum: pulumi.Output<number> } {
  const config = new pulumi.Config("simple");
  const [w, x, y] = ["w", "x", "y"].map((key) => Number(config.require(key)));
  const sum = new Sum("sum", x, y);
  const square = new Product("square", sum.sum, sum.sum);
  const difference = new Difference("diff", square.product, w);
  const division = new Division("divrem", difference.difference, sum.sum);
  const result = new Sum("result", division.quotient, division.remainder);
  return { outputSum: result.sum };
}
