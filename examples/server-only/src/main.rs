#[tokio::main]
async fn main() -> std::io::Result<()> {
    let server = framework::Server::bind("127.0.0.1:3000").await?;
    println!("listening on http://{}", server.local_addr()?);
    server.serve(server_only_app::app()).await
}
