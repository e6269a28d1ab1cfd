// The payloads, declared typia's way: nestia reads these types at compile
// time (typia's transform) and generates the checks and the serializers.
import { tags } from "typia";

export interface IMessage {
  message: string;
}

/** nestia's `IPoint3D`: no constraints. */
export interface IPoint3D {
  x: number;
  y: number;
  z: number;
}

/** nestia's `IBox3D`. */
export interface IBox3D {
  scale: IPoint3D;
  position: IPoint3D;
  rotate: IPoint3D;
  pivot: IPoint3D;
}

/** nestia's benchmark body. */
export interface IBoxes {
  data: IBox3D[];
}

/** Coordinates of a scene: finite numbers within +-1,000. */
export interface ICoordinates {
  x: number & tags.Minimum<-1000> & tags.Maximum<1000>;
  y: number & tags.Minimum<-1000> & tags.Maximum<1000>;
  z: number & tags.Minimum<-1000> & tags.Maximum<1000>;
}

/** A named box placed by its owner. */
export interface ISceneBox {
  name: string & tags.MinLength<1> & tags.MaxLength<64>;
  owner: string & tags.Format<"email"> & tags.MaxLength<254>;
  scale: ICoordinates;
  position: ICoordinates;
  rotate: ICoordinates;
  pivot: ICoordinates;
}

/** The constrained benchmark body: at most 100 boxes. */
export interface IScene {
  data: ISceneBox[] & tags.MaxItems<100>;
}
