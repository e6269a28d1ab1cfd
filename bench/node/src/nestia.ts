// nestia: NestJS on its fastify adapter, bodies checked by @nestia/core's
// TypedBody (typia.assert, generated at compile time) and answers written by
// TypedRoute (typia.assertStringify), nestia's defaults.
import "reflect-metadata";

import { TypedBody, TypedRoute } from "@nestia/core";
import { Controller, Get, Header, HttpCode, Module, Post } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { FastifyAdapter, NestFastifyApplication } from "@nestjs/platform-fastify";

import { HELLO, announce, commandLine } from "./common";
import { IBoxes, IMessage, IScene } from "./structures";

const { port, stringify } = commandLine();
const boxes = stringify as IBoxes;

@Controller()
class BenchController {
  @Get("plaintext")
  @Header("Content-Type", "text/plain")
  public plaintext(): string {
    return HELLO;
  }

  @TypedRoute.Get("json")
  public json(): IMessage {
    return { message: HELLO };
  }

  @Post("assert")
  @HttpCode(204)
  public assert(@TypedBody() _body: IScene): void {}

  @TypedRoute.Post("performance")
  @HttpCode(200)
  public performance(@TypedBody() body: IScene): IScene {
    return body;
  }

  @Post("assert-no-constraints")
  @HttpCode(204)
  public assertNoConstraints(@TypedBody() _body: IBoxes): void {}

  @TypedRoute.Post("performance-no-constraints")
  @HttpCode(200)
  public performanceNoConstraints(@TypedBody() body: IBoxes): IBoxes {
    return body;
  }

  @TypedRoute.Get("stringify")
  public stringify(): IBoxes {
    return boxes;
  }
}

@Module({ controllers: [BenchController] })
class BenchModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(
    BenchModule,
    new FastifyAdapter(),
    { logger: false },
  );
  await app.listen(port, "127.0.0.1");
  announce(app.getHttpServer());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
