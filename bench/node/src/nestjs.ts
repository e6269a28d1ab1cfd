// NestJS as its documentation writes it: DTO classes with class-validator
// decorators, a global ValidationPipe, on the fastify adapter (the one Nest's
// performance page recommends; nestia runs on the same adapter, so the two
// differ only in how bodies are checked and answers written).
import "reflect-metadata";

import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Module,
  Post,
  ValidationPipe,
} from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { FastifyAdapter, NestFastifyApplication } from "@nestjs/platform-fastify";
import { Type } from "class-transformer";
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsNumber,
  IsObject,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from "class-validator";

import { HELLO, announce, commandLine } from "./common";

const { port, stringify } = commandLine();

class Point3D {
  @IsNumber() x!: number;
  @IsNumber() y!: number;
  @IsNumber() z!: number;
}

class Box3D {
  @IsObject() @ValidateNested() @Type(() => Point3D) scale!: Point3D;
  @IsObject() @ValidateNested() @Type(() => Point3D) position!: Point3D;
  @IsObject() @ValidateNested() @Type(() => Point3D) rotate!: Point3D;
  @IsObject() @ValidateNested() @Type(() => Point3D) pivot!: Point3D;
}

class Boxes {
  @IsArray() @ValidateNested({ each: true }) @Type(() => Box3D) data!: Box3D[];
}

const finite = { allowNaN: false, allowInfinity: false };

class Coordinates {
  @IsNumber(finite) @Min(-1000) @Max(1000) x!: number;
  @IsNumber(finite) @Min(-1000) @Max(1000) y!: number;
  @IsNumber(finite) @Min(-1000) @Max(1000) z!: number;
}

class SceneBox {
  @IsString() @Length(1, 64) name!: string;
  @IsEmail() @MaxLength(254) owner!: string;
  @IsObject() @ValidateNested() @Type(() => Coordinates) scale!: Coordinates;
  @IsObject() @ValidateNested() @Type(() => Coordinates) position!: Coordinates;
  @IsObject() @ValidateNested() @Type(() => Coordinates) rotate!: Coordinates;
  @IsObject() @ValidateNested() @Type(() => Coordinates) pivot!: Coordinates;
}

class Scene {
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => SceneBox)
  data!: SceneBox[];
}

@Controller()
class BenchController {
  @Get("plaintext")
  @Header("Content-Type", "text/plain")
  public plaintext(): string {
    return HELLO;
  }

  @Get("json")
  public json(): { message: string } {
    return { message: HELLO };
  }

  @Post("assert")
  @HttpCode(204)
  public assert(@Body() _body: Scene): void {}

  @Post("performance")
  @HttpCode(200)
  public performance(@Body() body: Scene): Scene {
    return body;
  }

  @Post("assert-no-constraints")
  @HttpCode(204)
  public assertNoConstraints(@Body() _body: Boxes): void {}

  @Post("performance-no-constraints")
  @HttpCode(200)
  public performanceNoConstraints(@Body() body: Boxes): Boxes {
    return body;
  }

  @Get("stringify")
  public stringify(): unknown {
    return stringify;
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
  app.useGlobalPipes(new ValidationPipe());
  await app.listen(port, "127.0.0.1");
  announce(app.getHttpServer());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
